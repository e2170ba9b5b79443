// The offline narrator's word stock: per genre, places, sights, sounds, figures and omens that the
// templates in narrator.ts combine, plus keywords to recognise a premise's genre and title nouns.
// Each list has exactly six entries: the narrator's no-repeat arithmetic counts on these sizes.
import type { Genre } from '@shared/constants';

export interface GenreWords {
  keywords: string[];
  places: string[];
  /** Clauses that can follow "and" or a comma. */
  sights: string[];
  /** Noun phrases that make a noise. */
  sounds: string[];
  /** Noun phrases for someone (or something) who appears. */
  figures: string[];
  /** Clauses that hint at what comes next. */
  omens: string[];
  titleNouns: string[];
}

export const VOCABULARY: Record<Genre, GenreWords> = {
  fantasy: {
    keywords: ['dragon', 'wizard', 'magic', 'sword', 'kingdom', 'elf', 'castle', 'quest', 'spell', 'knight', 'throne', 'sorcer'],
    places: ['the ruined watchtower', 'the moss-covered bridge', 'the king\'s road', 'the edge of the Whispering Wood', 'the old shrine', 'the silent courtyard'],
    sights: ['lanterns flare blue along the old stones', 'a ribbon of silver mist curls around your boots', 'runes you did not notice before begin to glow', 'the shadows of the trees lean toward you', 'a hawk with golden eyes settles on a branch to watch', 'petals fall upward, as if the air has forgotten its rules'],
    sounds: ['the toll of a distant bell', 'the beat of great wings', 'a harp string plucked by no hand', 'the clatter of hooves on cobbles', 'a chant in a language older than the hills', 'the creak of an ancient gate'],
    figures: ['a hooded ferryman', 'an old woman with a lantern of green fire', 'a knight whose armour bears no crest', 'a fox that walks like a man', 'a child carrying a sealed letter', 'a wizard with ink-stained fingers'],
    omens: ['the wind carries the smell of smoke from the north', 'the ring on your finger grows warm', 'a crown-shaped star rises where no star should be', 'every bird in the valley falls silent at once', 'the map in your pack has redrawn itself', 'a crack runs across the moon like a seam'],
    titleNouns: ['Crown', 'Oath', 'Ember', 'Wyrm', 'Tower', 'Rune'],
  },
  scifi: {
    keywords: ['space', 'ship', 'planet', 'robot', 'android', 'alien', 'station', 'galaxy', 'star', 'laser', 'orbit', 'cyber'],
    places: ['the observation deck', 'the cargo bay', 'the maintenance shaft', 'the airlock corridor', 'the hydroponics ring', 'the bridge'],
    sights: ['warning lights ripple amber along the bulkhead', 'a hologram flickers to life and shows a face you almost recognise', 'frost blooms across the viewport in strange geometric shapes', 'a maintenance drone freezes mid-task and turns its lens toward you', 'the stars outside slide sideways as the station shifts its spin', 'a string of numbers scrolls across every screen at once'],
    sounds: ['the hiss of a pressure seal', 'a proximity alarm chirping three times', 'the hum of a reactor changing pitch', 'static that almost sounds like a voice', 'the clank of magnetic boots overhead', 'a synthetic voice reciting coordinates'],
    figures: ['a technician in a scorched flight suit', 'an android with one cracked optic', 'the station\'s captain, pale and unshaven', 'a smuggler with a mirror-bright prosthetic hand', 'a child wearing an oversized helmet', 'a figure in an environment suit with no name patch'],
    omens: ['the oxygen readout drops by a single percent', 'an unregistered ship matches your orbit', 'the AI asks, politely, whether you are sure', 'a door that has been sealed for ten years reports itself open', 'the stars behind the planet start to go out one by one', 'your own ID badge now lists you as deceased'],
    titleNouns: ['Orbit', 'Signal', 'Drift', 'Horizon', 'Station', 'Void'],
  },
  mystery: {
    keywords: ['detective', 'murder', 'clue', 'mystery', 'case', 'suspect', 'crime', 'investigat', 'missing', 'secret', 'inspector', 'alibi'],
    places: ['the rain-slick alley', 'the shuttered study', 'the hotel\'s back staircase', 'the pawnbroker\'s counter', 'the station platform', 'the dusty archive room'],
    sights: ['a cigarette still smoulders in the ashtray', 'muddy footprints lead to a door that is locked from the inside', 'a photograph has been turned face down on the desk', 'the clock on the mantel has stopped at a quarter past nine', 'a glove, too small for any man, lies by the window', 'someone has torn a single page from the ledger'],
    sounds: ['the click of a door latch upstairs', 'footsteps that stop when you stop', 'a telephone ringing in an empty office', 'the scratch of a pen behind a curtain', 'a whistle from the street below', 'rain drumming on a tin roof'],
    figures: ['a nervous clerk with ink on his cuffs', 'a widow in a veil who watches too closely', 'a constable who seems to know your name', 'a newsboy with a sharp memory', 'a gentleman whose alibi is too neat', 'a maid who will not meet your eyes'],
    omens: ['the same name turns up twice where it should not', 'the letter in your pocket is not the one you put there', 'somebody has been in your rooms and wanted you to know it', 'the only witness has bought a ticket out of town', 'the handwriting on the note matches your own', 'a second body would explain everything, and that frightens you'],
    titleNouns: ['Ledger', 'Alibi', 'Witness', 'Key', 'Verdict', 'Clue'],
  },
  horror: {
    keywords: ['ghost', 'haunted', 'blood', 'monster', 'curse', 'demon', 'nightmare', 'zombie', 'dread', 'creature', 'cult', 'fear'],
    places: ['the cellar stairs', 'the boarded-up nursery', 'the flooded chapel', 'the end of the long hallway', 'the orchard of dead trees', 'the attic'],
    sights: ['the wallpaper bulges as if something breathes behind it', 'your breath fogs though the room was warm a moment ago', 'a handprint, small and wet, appears on the glass', 'every portrait in the hall now faces the same way', 'the candle flame bends toward the dark instead of away', 'a door you closed is standing open again'],
    sounds: ['a lullaby hummed slightly off key', 'nails dragging slowly across wood', 'the wet creak of a rope under weight', 'three knocks from inside the wall', 'laughter that stops too suddenly', 'your own name whispered from below'],
    figures: ['a pale girl in a nightgown', 'a caretaker with a ring of rusted keys', 'a man whose smile is far too wide', 'something tall that stands very still', 'a priest who will not stop praying', 'a dog that refuses to come closer'],
    omens: ['the scratches on the door spell out a date: tonight', 'the house seems larger on the inside than it did from the road', 'your reflection is a heartbeat late', 'the radio tunes itself to a station that plays only breathing', 'the roots of the dead trees have moved closer to the house', 'the photographs all show one more person than there was'],
    titleNouns: ['Hollow', 'Whisper', 'Cellar', 'Lullaby', 'Veil', 'Rot'],
  },
  western: {
    keywords: ['cowboy', 'sheriff', 'outlaw', 'saloon', 'frontier', 'desert', 'gunslinger', 'ranch', 'horse', 'bounty', 'revolver', 'wild west'],
    places: ['the dusty main street', 'the saloon\'s swinging doors', 'the dry riverbed', 'the railway water tower', 'the canyon pass', 'the abandoned mission'],
    sights: ['a tumbleweed rolls across the street and nobody watches it', 'dust devils spin up on the far ridge', 'a wanted poster flaps loose with your likeness on it', 'the sun glints off something metal up on the bluff', 'a riderless horse trots past, saddle still warm', 'curtains twitch in every window along the street'],
    sounds: ['the jingle of spurs on the boardwalk', 'a distant train whistle', 'the ratchet of a hammer being cocked', 'a piano that stops mid-tune', 'coyotes calling from the hills', 'the creak of a gallows rope in the wind'],
    figures: ['a sheriff with a tarnished star', 'a preacher with a rifle across his knees', 'a card sharp in a velvet vest', 'a rancher\'s daughter who rides better than anyone', 'a bounty hunter with a long coat', 'an old prospector with a map he will not show'],
    omens: ['the noon stage is an hour late and nobody wants to say why', 'a fresh grave in the churchyard has your initials on it', 'the gang\'s leader rides in at sundown, they say', 'the town\'s only well has turned bitter overnight', 'the telegraph lines have been cut on both sides of town', 'a stranger paid for your drink and left before you could thank him'],
    titleNouns: ['Dust', 'Bounty', 'Frontier', 'Gallows', 'Canyon', 'Spur'],
  },
  postapocalyptic: {
    keywords: ['apocalypse', 'wasteland', 'survivor', 'ruin', 'radiation', 'bunker', 'scaveng', 'fallout', 'collapse', 'raider', 'post-apocalyptic', 'end of the world'],
    places: ['the collapsed overpass', 'the gutted supermarket', 'the old fallout shelter', 'the rusted water plant', 'the dead highway', 'the flooded subway entrance'],
    sights: ['a Geiger counter clicks faster the closer you step', 'green smoke rises from a cooking fire that should not be here', 'a spray-painted arrow points the way you came', 'a flock of crows lifts off all at once from the wreckage', 'fresh tyre tracks cut through the ash', 'a child\'s drawing is pinned to a burned-out car'],
    sounds: ['the whine of a distant engine', 'a radio crackling with a looping distress call', 'the groan of twisted steel settling', 'dogs barking in the ruins', 'wind whistling through broken glass', 'a generator coughing to life'],
    figures: ['a scavenger in a patched gas mask', 'a trader leading a two-headed mule', 'a raider with a painted face', 'a quiet medic with too few supplies', 'an old soldier still in uniform', 'a girl who speaks only in radio call signs'],
    omens: ['the water in your canteen tastes faintly of metal', 'the raiders\' smoke signals are getting closer each night', 'the map marks a settlement where there is only a crater', 'the sky to the east is the wrong colour again', 'someone has been following your tracks since dawn', 'the distress call now repeats your name'],
    titleNouns: ['Ash', 'Wasteland', 'Signal', 'Ruin', 'Shelter', 'Embers'],
  },
  comedy: {
    keywords: ['funny', 'comedy', 'silly', 'prank', 'ridiculous', 'absurd', 'clown', 'mishap', 'hilarious', 'joke', 'farce', 'sitcom'],
    places: ['the overcrowded office kitchen', 'the town fair\'s pie tent', 'the wrong wedding reception', 'the back of a very small car', 'the museum gift shop', 'the community theatre stage'],
    sights: ['a pigeon walks in, looks at you, and walks out in disgust', 'someone\'s toupee is sliding gently toward disaster', 'a banner reading CONGRATULATIONS KEVIN unfurls for no reason', 'the sprinkler system starts up with perfect comic timing', 'a goat in a tiny hat wanders through the crowd', 'your shoelace has somehow tied itself to a stranger\'s'],
    sounds: ['a kazoo fanfare', 'a chorus of car alarms', 'the squeak of a rubber chicken', 'polite but desperate applause', 'a tuba playing slightly the wrong song', 'someone shouting "Not again!" in the distance'],
    figures: ['a mayor with a suspiciously large medal', 'an accountant dressed as a lobster', 'a very serious mime', 'a grandmother on rollerblades', 'a magician whose rabbit has unionised', 'a delivery man with a cake nobody ordered'],
    omens: ['the caterers have mistaken you for the guest of honour', 'somebody has put your face on the raffle prize', 'the goat has eaten the only copy of the speech', 'the fire alarm test is scheduled for exactly now', 'your mother is calling, and she sounds like she knows', 'the mime is, unmistakably, following you'],
    titleNouns: ['Mix-Up', 'Fiasco', 'Caper', 'Kerfuffle', 'Hullabaloo', 'Blunder'],
  },
  historical: {
    keywords: ['roman', 'medieval', 'empire', 'victorian', 'war', 'century', 'ancient', 'pharaoh', 'samurai', 'viking', 'revolution', 'legion'],
    places: ['the market square', 'the harbour wall', 'the cathedral steps', 'the governor\'s hall', 'the muddy camp of the legion', 'the scriptorium'],
    sights: ['torches gutter in iron brackets along the wall', 'a herald unrolls a proclamation bearing a broken seal', 'soldiers in mismatched armour block the far gate', 'a ship with black sails glides into the harbour', 'merchants hurry to shutter their stalls', 'a monk drops his candle and does not stop to pick it up'],
    sounds: ['the clang of the smithy', 'a crier calling the hour', 'the rumble of cartwheels on stone', 'church bells ringing out of turn', 'the shout of a drill sergeant', 'hoofbeats of a messenger riding hard'],
    figures: ['a tax collector with a heavy purse', 'a scribe with a secret in his sleeve', 'a veteran missing two fingers', 'a noblewoman travelling without her escort', 'a merchant from a faraway port', 'a priest who carries a sword'],
    omens: ['the messenger carries the king\'s seal, but the wax is still warm', 'word spreads that the bridge has been burned', 'the grain stores are emptier than the ledgers claim', 'a comet has been seen over the city for three nights', 'the city gates will close at dusk by order of the council', 'someone in the crowd is wearing the enemy\'s colours beneath his cloak'],
    titleNouns: ['Legion', 'Chronicle', 'Seal', 'Crown', 'Harbour', 'Banner'],
  },
  romance: {
    keywords: ['love', 'romance', 'heart', 'kiss', 'wedding', 'date', 'crush', 'lover', 'affair', 'ballroom', 'sweetheart', 'rendezvous'],
    places: ['the rose garden', 'the crowded ballroom', 'the little bookshop on the corner', 'the rain-soaked train platform', 'the rooftop terrace', 'the seaside promenade'],
    sights: ['candlelight catches in a pair of familiar eyes', 'a single rose has been left on the bench beside you', 'your hands brush, and neither of you pulls away first', 'the lights of the city come on one by one', 'a letter in careful handwriting peeks from your coat pocket', 'the wind steals a ribbon and carries it toward you'],
    sounds: ['a slow waltz drifting through an open window', 'laughter you would know anywhere', 'the patter of rain on an umbrella', 'a violin tuning before the dance', 'church bells from across the bay', 'a voice saying your name softly'],
    figures: ['an old flame you hoped never to see again', 'a stranger with a warm smile and a rumpled coat', 'your best friend, suddenly unable to look at you', 'a matchmaking aunt with a plan', 'a rival in an immaculate suit', 'a musician who keeps playing your song'],
    omens: ['the letter is signed with only an initial', 'the last train leaves in ten minutes', 'someone has told them how you really feel', 'the ring in the shop window is gone', 'tomorrow one of you will be leaving the city', 'your rival has asked the very question you meant to ask'],
    titleNouns: ['Promise', 'Waltz', 'Letter', 'Heart', 'Garden', 'Vow'],
  },
  thriller: {
    keywords: ['spy', 'agent', 'conspiracy', 'chase', 'assassin', 'heist', 'hostage', 'bomb', 'escape', 'hacker', 'thriller', 'cartel'],
    places: ['the underground car park', 'the embassy service corridor', 'the rooftop of the parking garage', 'the crowded metro carriage', 'the safe house kitchen', 'the freight yard'],
    sights: ['a red dot dances for a moment on the wall beside you', 'two men in grey suits turn away a little too quickly', 'a phone on the table lights up with a message meant for you', 'the security camera swivels to follow you', 'a van with no plates idles across the street', 'the file you need has been shredded, all but one page'],
    sounds: ['the chirp of a burner phone', 'tyres screeching two streets away', 'the click of a silenced pistol\'s safety', 'a helicopter circling low', 'a countdown beeping somewhere out of sight', 'an earpiece crackling with a voice you trust less every minute'],
    figures: ['a handler who answers questions with questions', 'a courier with a chained briefcase', 'a journalist who knows too much', 'a hacker living on energy drinks and paranoia', 'a diplomat with two passports', 'a woman who was reported dead last spring'],
    omens: ['your cover name has just appeared on the evening news', 'the extraction point has been moved without explanation', 'the mole is someone you spoke to today', 'the money trail leads straight back to your own agency', 'you have eleven minutes before the doors lock down', 'the person who hired you has stopped answering'],
    titleNouns: ['Protocol', 'Cipher', 'Extraction', 'Handler', 'Countdown', 'Dossier'],
  },
};
