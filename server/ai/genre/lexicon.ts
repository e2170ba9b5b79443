// The words that point a premise to a genre, with how hard they point. Written from what each genre
// is about (people, places, things, tropes), then widened with general vocabulary where premises
// written to test it (genre-corpus.ts) showed whole kinds of cue missing. Each tier is a comma-separated
// list of cues: a word matches itself and its simple inflections (dragon → dragons, haunt → haunted,
// fall → falls / falling), "stem*" matches any word starting with the stem, and several words form a
// phrase matched as a whole (the longest cue at a place wins, so "bombs fell" is not also "bomb").
// A word that points two ways (witch, knight, plague) sits in both genres with different weights.
import type { Genre } from '@shared/constants';

/** Cue lists by weight: 3 names the genre outright, 2 is a strong hint, 1 a lean, 0.5 a whisper. */
export type CueTiers = Partial<Record<3 | 2 | 1 | 0.5, string>>;

export const GENRE_CUES: Record<Genre, CueTiers> = {
  fantasy: {
    3: `fantasy, dragon, wizard, sorcer*, elf, elven, dwarf, orc, goblin, troll, unicorn, griffin, gryphon, fairy,
      faerie, fae, mage, warlock, enchant*, magic*, wand, potion, spellbook, grimoire, elixir, prophecy, chosen one,
      dark lord, heir to the throne, floating city, floating island, sky city, lanterns whisper, talking tree, mermaid,
      centaur, phoenix, druid, paladin, necromancer, ogre, pixie, sprite, runes, rune, turned to stone, dragonslayer,
      halfling, hobbit, wyvern, basilisk, hydra, fairy tale, fairytale, demigod, nymph, dryad, alchemist, alchemy, thieves guild, adventuring party, sword and sorcery, dragonrider, elemental, goddess`,
    2: `kingdom, realm, quest, sword, knight, castle, throne, princess, prince, spell, witch, amulet, oracle, sorceress,
      mythical, giant, bard, dungeon, enchantress, witchcraft, curse,
      squire, mystical, kraken, chimera, imp, seer, shapeshifter, summon*, adventurer, warlord, talk to the wind`,
    1: `king, queen, tower, hermit, apprentice, blacksmith, ranger, tavern, cottage, forest, legend, myth, ancient,
      portal, map, compass, medieval, village elder, ruins, citadel, solstice,
      gods, spirit, immortal, scroll, guild, powers, peasant, merchant, pirate, carriage, norse, vampire, gnome, magician`,
  },
  scifi: {
    3: `sci fi, scifi, science fiction, starship, spaceship, spacecraft, space station, alien, android, robot, cyborg,
      ai, cryosleep, cryo*, hyperspace, warp drive, galaxy, galactic, planet, interstellar, asteroid, orbit*,
      colony ship, laser, hologram, cyberpunk, megacorp*, neural, nanobot*, astronaut, first contact,
      extraterrestrial, ufo, mars, europa, lunar, moon base, time machine, time travel, teleport*, starfleet,
      in the future, years in the future, mining colony, survey ship, derelict vessel, spacer, mech,
      generation ship, deep space, terraform*, exoplanet, spacesuit, airlock, zero gravity, wormhole, black hole, light years, faster than light, artificial intelligence, megacity, flying car, jetpack, exosuit, mind upload, alien invasion, parallel universe, multiverse, robot*, my clone,
      on the moon, ship computer, log out, logged out, headset`,
    2: `space, futuristic, future, colony, clone, cyber*, scanner, spaceport, virtual reality, simulation, drone,
      genetic*, dead star, charted space, quantum,
      reactor, upload, synthetic, implant*, augment*, dystopia*, the machines, virtual, abducted, abduction, dimension, starbase, mothership`,
    1: `earth, humanity, habitat, neon, computer, signal, lab, scientist, experiment, hack, crew, superhero, satellite,
      pilot, blockade, derelict,
      humans, engineer, laboratory, prototype, invention, inventor, machine, digital, mission, resistance,
      moon`,
    0.5: `mutant, captain`,
  },
  mystery: {
    3: `mystery, detective, sleuth, whodunit, private investigator, private eye, motive, alibi, found dead, locked room,
      crime scene, anonymous letter, who stole, who killed, who took, who poisoned, noir,
      cold case, sherlock, poirot, marple, find out who, figure out who, red herring, unsolved`,
    2: `investigat*, inspector, murder, suspect, clue, missing, disappear*, vanish*, poison*, butler, footprints,
      the same stranger, nobody remembers, no one remembers, coroner, autopsy,
      coded, cipher, solve, murderer,
      strangled, no one has seen, nobody has seen, digging up`,
    1: `stolen, theft, stole, case, secret, riddle, puzzle, anonymous, lying, lie, body, dead, crime, police, witness,
      prove, suicide, widow, funeral, locked, archaeologist, expedition, small town, evidence,
      someone keeps, someone has been, crossword, vicar, gala, killer, skeleton, jewel, diamond, necklace, inheritance, inherit*, manor, country house, mansion, mysterious,
      serial killer,
      bones, found`,
  },
  horror: {
    3: `horror, haunted, haunting, ghost, ghoul, demon, possessed, possession, zombie, werewolf, poltergeist,
      exorcis*, undead, cabin in the woods, doppelganger, eldritch, occult, terror, terrified, creepy, eerie, werewolves,
      the walls breathe, something in the dark,
      slasher, masked killer, seance, ouija, sanatorium, imaginary friend, the dead walk`,
    2: `monster, creature, nightmare, scream*, evil, cursed, corpse, the thing, dread, in the walls, scratching, doll,
      asylum, graveyard, cemetery, crypt, cult, whisper, my own voice, my reflection, shadow figure, witch,
      babysit*, empty room, empty bedroom, empty house, corn maze, cornfield, following me, tentacle, gore, strange noises, noises, knocking, spooky, vampire, mummy, mirror, infected,
      full moon, never blinks, something climbs, climbs out of, something is following`,
    1: `blood, curse, ritual, sacrifice, something that, basement, attic, coffin, skull, bones, death, priest,
      every night, midnight, outbreak, deaths, clown, gets louder,
      the dead, shadow, footsteps, teeth, claws, howl*, abandoned, old house, moved into, move into, trapped, killer, inherit*, manor, mansion, skeleton, quarantine, watching me, stalk*`,
    0.5: `dead, funeral, dark`,
  },
  western: {
    3: `western, sheriff, outlaw, saloon, cowboy, cowgirl, gunslinger, stagecoach, rustler, wild west, old west, posse,
      six shooter, gold rush, prospector, high noon, tumbleweed, lasso, spurs, bandit,
      pony express, ride into town, covered wagon, wanted poster, cattle drive, texas ranger, oregon trail, gunfight, struck it rich, strike it rich`,
    2: `frontier, ranch, rancher, cattle, revolver, bounty hunter, marshal, prairie, homestead*, railroad, dusty town,
      mining camp, ghost town, mexican border, comanche, apache, sioux, wagon train, deputy,
      horseback, saddle, holster, bounty, cavalry, sharpshooter, mustang, rodeo, out west, pioneer, mining town, train robbery, shootout, showdown`,
    1: `desert, dusty, horse, territory, texas, nevada, arizona, canyon, mesa, duel, gold, herd, ride into, shot,
      gun, robbed,
      rider, claim, jail, noon, wagon, fort, rifle, stallion, settlers, gold mine, silver mine, railway, feud,
      dakota, wyoming, montana, colorado, new mexico, oklahoma, kansas, bullets, horse thief, price on my head`,
  },
  postapocalyptic: {
    3: `post apocalyptic, postapocalyptic, apocalypse, apocalyptic, wasteland, fallout, nuclear war, bombs fell,
      after the bombs, end of the world, world ended, civilization collapsed, society collapsed, scavenger,
      scaveng*, grid went down, the collapse,
      after the fall, last person on earth, last man on earth, last woman on earth, last people on earth, nuclear winter, zombie apocalypse,
      few people left, after the sickness`,
    2: `raider, mutant, radiation, irradiated, bunker, survivor, plague, pandemic, last safe, last city, settlement,
      power grid, seas rose, flooded cities, collapse, ration*, gas mask, trade water, clean water, last humans,
      rebuild, only survivor, empty city, empty streets, warlord, nuke*, zombie,
      people left, the sickness, dead zone, last working`,
    1: `ruins, rubble, gang, supply, highway, outbreak, blackout, vault, climate, underground,
      used to be, flood*, wild dogs, feral, overgrown, abandoned, deserted, seeds, canned food, fuel, gasoline, militia, compound, quarantine, infected, virus, caravan, years after the,
      bullets, greenhouse`,
    0.5: `rooftops, ash, radio`,
  },
  comedy: {
    3: `comedy, funny, hilarious, ridiculous*, absurd*, slapstick, prank, goofy, wacky, zany, bumbling, talking cat,
      talking dog, talking goat, talking animal, talking parrot, the world's worst, clumsy, sitcom, everything goes wrong,
      garden gnome, swapped bodies, swap bodies, body swap, mistaken identity, unicycle,
      rubber duck`,
    2: `accidentally, silly, goat, hamster, llama, bingo, worst, going wrong, goes wrong, went wrong, mishap,
      embarrass*, joke, incompetent, hapless, can't cook, boyfriend's parents, girlfriend's parents, meet the parents,
      chaos, chaotic, my dog, my cat, shenanigans, mix up, mixup, farce,
      grumpy, parrot, roommate, in laws, family dinner, office party, road trip, karaoke, talent show, baking contest, cooking contest, toilet, banana, raccoon, alpaca, lazy, quirky, nonsense, reality show, the worst,
      seasick, tripping, trip over, trips over, hiccups, sneeze*`,
    1: `grandma, granny, biker gang, substitute teacher, clown, penguin, duck, chicken, pet, superhero, awkward, insists,
      mayor, council, toast,
      terrible, neighbour, neighbor, birthday party, birthday, dinner party, my boss, vacation, mistake, pretend, disguise, costume, pants, socks, pie, sandwich, pizza, cheese, squirrel, pigeon, sheep, cow, weird, bizarre, eccentric, keeps repeating, viral, influencer, swap, magician, afraid of, gnome, christmas, caveman,
      allergic, life advice, ninja`,
  },
  historical: {
    3: `historical, victorian, regency, edwardian, tudor, elizabethan, roman, legion, legionary, centurion, pharaoh,
      samurai, shogun, daimyo, viking, napoleon, napoleonic, waterloo, gutenberg, magellan, columbus, caesar,
      cleopatra, hadrian, titanic, civil war, world war, great war, wwi, wwii, ww1, ww2, french revolution, renaissance, medici, black death,
      suffragette, tsar, czar, bastille, guillotine, mayflower, anglo saxon, ancient rome, ancient egypt,
      ancient greece, colosseum, gladiator, ramesses, spartan, crusade*, bc, bce,
      scullery maid, georgian, bletchley, silk road, redcoat, musket, highwayman, industrial revolution, workhouse, chimney sweep, blitz, nazi, occupied france, d day, pearl harbor, great depression, speakeasy, roaring twenties, flapper, bootlegger, jazz age, inquisition, constantinople, mongol, genghis, edo, gaul, toga, bronze age, stone age, iron age, disguised as a man, pyramid,
      lady in waiting, boleyn, henry viii, the court of`,
    2: `duke, duchess, empire, emperor, feudal, trenches, field hospital, royal court, scribe, galleon,
      cabin boy, cotton mill, rome, athens, sparta, aztec, inca, mayan, byzantine, ottoman, prohibition,
      dynasty, century, wellington, northumbria, period drama, courtier, colonial, shakespeare,
      footman, governess, codebreaker, samarkand, privateer, baron, earl, countess, serf, gaslight, telegraph, debutante, corset, pope, sultan, caliph, geisha, saxon, chariot, troy, trojan, neanderthal, cavalry,
      stable boy, ii, iii, iv, vi, vii, viii, ix, xi, xii, xiii, xiv, xv, xvi`,
    1: `courier, revolution, revolutionary, monk, monastery, mill, fleet, apprentice, knight, egypt, ancient, plague,
      salem, archaeologist, king, queen, industrial, cold war,
      maid, servant, merchant, caravan, stonemason, cathedral, maiden voyage, pirate, lord, peasant, plantation, orphanage, carriage, ballroom, heretic, imperial, nile, sphinx, norse, celtic, senate, senator, settlers, caveman,
      royal`,
    0.5: `butler, lady, spice, sailor,
      medieval, priest, jazz`,
  },
  romance: {
    3: `romance, romantic, in love, fall for, falls for, fell for, fall in love, fell in love, falls in love, lover,
      kiss, first love, love letter, soulmate, sweetheart, valentine, flirt*, heartbreak, can't stop thinking about,
      enemies to lovers, fake date, fake dating, dating app, blind date, crush on, love triangle, true love,
      handsome stranger, secret admirer, old flame, first date, asks me out, ask her out, ask him out, asked me out, holiday romance,
      brother's best friend, sister's best friend`,
    2: `love, wedding, bride, groom, marriage, marry, proposal, propose, florist, barista, pen pal, reunion,
      forced to share, arranged marriage, crush, date, dating, girlfriend, boyfriend, poem, bridesmaid, ex,
      handsome, gorgeous, single dad, single mom, single mother, single father, snowed in, two strangers, attraction, attracted, honeymoon, admirer, prom, candlelit,
      back in town, bumping into, bump into, running into, run into, tour guide`,
    1: `bakery, baker, cafe, coffee shop, heart, engaged, engagement, best man, next door, summer, letters, husband,
      wife, matched, chef, dance,
      beautiful, charming, widower, christmas, chemistry, sparks, anniversary, divorce, second chance, childhood friend, roses, bouquet, ballroom, roommate,
      best friend, tourist, meet the`,
    0.5: `neighbour, neighbor, moonlit, lodge`,
  },
  thriller: {
    3: `thriller, spy, espionage, secret agent, assassin, hitman, heist, conspiracy, cartel, bodyguard, hostage,
      kidnap*, blackmail, on the run, follow that car, sniper, whistleblower, cia, mi6, fbi, kgb, undercover,
      terrorist, cover blown, cover was blown, double agent, hunting me,
      getaway, getaway driver, last job, one last job, hijack*, bank robbery, witness protection, prison break, dirty cop, contract killer, nuclear codes, being followed`,
    2: `agent, mafia, mob, ransom, bomb, chase, passport, no memory, amnesia, gun, 24 hours, 48 hours, countdown,
      hacked, hacker, threaten*, smuggl*, casino, wants dead, wants me dead, framed, manhunt, safe house,
      robbery, robber, taken over, never existed, gaslighting, paranoi*, knows my name, knows my secret, someone knows, stalk*, watching me, surveillance, informant, fugitive, corrupt, explosive, detonat*, mole, mercenary, special forces, hit list, serial killer,
      usb stick, flash drive, with my name on it, being poisoned`,
    1: `hunt*, deadline, hotel room, steal, journalist, government, proof, witness, cop, police, berlin, gang, burglar,
      rob, escape, cold war, tracking,
      bank teller, my secret, following me, prison, president, trap, trapped, traitor, betray*, operation, mission, target, drug, killer, senator, resistance,
      my name`,
  },
};

/** Phrases that look like a cue but are not one ("heist of the century" is no period piece). */
export const NOT_CUES = `of the century, in a century, love to, would love, loved ones, up to date, due date, spelling bee,
  the future of, blood type`;

/**
 * Magic in a premise: historical fiction has none, so with any of these the period cues count
 * towards fantasy (a wizard in 1815 is fantasy in period dress). Witches and curses stay out: a
 * witch trial is history.
 */
export const MAGIC_CUES = `magic*, wizard, sorcer*, enchant*, spell, spellbook, potion, wand, dragon, elf, elven, fairy, unicorn,
  mage, warlock, runes, rune`;

/** A year before 1950 sets a story in the past; one far ahead sets it in the future. */
export const PAST_YEAR_BEFORE = 1950;
export const FUTURE_YEAR_FROM = 2050;
export const YEAR_WEIGHT = 2.5;
