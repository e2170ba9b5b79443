// The painter's reading of a scene: setting, hour, weather, genre and named things from plain
// keyword lists, so these cases pin down what a given reply will be drawn as.
import { describe, expect, it } from 'vitest';
import { analyseScene, MAX_THINGS } from './analysis';

describe('analyseScene', () => {
  it('reads a sea at night in a storm', () => {
    const scene = analyseScene(
      'Thunder rolls over the black sea at midnight. Waves crash over the deck as lightning forks above the ship, and the lantern swings.',
      'dark gothic horror illustration',
    );
    expect(scene).toEqual({
      genre: 'horror',
      setting: 'sea',
      timeOfDay: 'night',
      weather: 'storm',
      things: ['ship', 'lantern'],
    });
  });

  it('reads a desert at noon', () => {
    const scene = analyseScene(
      'At noon the sun blazes over the dunes of the desert. A horse stands beside a cactus, near a bleached skull.',
      'western frontier painting',
    );
    expect(scene).toEqual({
      genre: 'western',
      setting: 'desert',
      timeOfDay: 'day',
      weather: 'clear',
      things: ['horse', 'cactus', 'skull'],
    });
  });

  it('reads a city in the rain, at night by default for a mystery', () => {
    const scene = analyseScene(
      'Rain drums on the city street; neon signs flicker above the alley where a car idles.',
      'gritty noir mystery illustration',
    );
    expect(scene).toMatchObject({
      genre: 'mystery',
      setting: 'city',
      timeOfDay: 'night',
      weather: 'rain',
      things: ['car'],
    });
  });

  it('reads a forest at dawn in fog, a cave, space and a tavern with snow outside', () => {
    expect(
      analyseScene(
        'Dawn breaks over the forest; mist curls between the pines around an old tree.',
        'painterly high-fantasy illustration',
      ),
    ).toMatchObject({
      setting: 'forest',
      timeOfDay: 'dawn',
      weather: 'fog',
      things: ['tree'],
    });
    expect(analyseScene('Stalactites drip in the cavern as your torch finds a chest.', 'fantasy')).toMatchObject({
      setting: 'cave',
      things: ['torch', 'chest'],
    });
    expect(
      analyseScene('The starship drifts in orbit above a ringed planet.', 'cinematic science-fiction concept art'),
    ).toMatchObject({
      genre: 'scifi',
      setting: 'space',
      timeOfDay: 'night',
      weather: 'clear',
      things: ['spaceship'],
    });
    expect(
      analyseScene(
        'In the tavern the hearth crackles while snow falls past the window this evening.',
        'historical oil painting',
      ),
    ).toMatchObject({
      genre: 'historical',
      setting: 'interior',
      timeOfDay: 'dusk',
      weather: 'snow',
    });
  });

  it('takes the genre from the art style, which outweighs the words of the scene', () => {
    const cases: Array<[string, string]> = [
      ['painterly high-fantasy illustration', 'fantasy'],
      ['cinematic science-fiction concept art', 'scifi'],
      ['moody noir mystery illustration', 'mystery'],
      ['dark gothic horror illustration', 'horror'],
      ['dusty western frontier painting', 'western'],
      ['post-apocalyptic wasteland concept art', 'postapocalyptic'],
      ['whimsical cartoon comedy illustration', 'comedy'],
      ['historical oil painting, victorian', 'historical'],
      ['soft romantic pastel illustration', 'romance'],
      ['tense spy thriller film still', 'thriller'],
    ];
    for (const [style, genre] of cases)
      expect(analyseScene('A wizard casts a spell at the dragon.', style).genre, style).toBe(genre);
    expect(analyseScene('A wizard casts a spell at the dragon.', '').genre).toBe('fantasy');
    expect(analyseScene('The detective studies the clue under the lamp.', '').genre).toBe('mystery');
  });

  it('lists things in the order the text names them, at most six, without guessing at part-words', () => {
    const scene = analyseScene(
      'A skull, a key, a book, a sword, a raven, a wolf, a crystal and a bridge lie before the tower door.',
      'fantasy',
    );
    expect(scene.things).toEqual(['skull', 'key', 'book', 'sword', 'raven', 'wolf']);
    expect(scene.things).toHaveLength(MAX_THINGS);
    // "orbit" is not an orb, "deserted" is not a desert, "mistake" is not mist.
    expect(analyseScene('The deserted orbit station was a mistake.', 'scifi')).toMatchObject({
      setting: 'space',
      weather: 'clear',
      things: [],
    });
  });

  it('falls back to open plains by day in clear weather', () => {
    expect(analyseScene('You wait.', '')).toEqual({
      genre: 'fantasy',
      setting: 'plains',
      timeOfDay: 'day',
      weather: 'clear',
      things: [],
    });
  });
});
