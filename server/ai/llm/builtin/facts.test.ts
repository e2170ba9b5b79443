// The builtin narrator's facts: the plain ways a player names things, as "your <thing>" facts with
// their turn, and nothing from sentences that name nothing or from its own replies.
import { describe, expect, it } from 'vitest';
import { extractFacts } from './facts';

const said = (content: string, turn = 4) => extractFacts([{ role: 'user', content, turn }]);

describe('extractFacts', () => {
  it.each([
    ['I tell the stable boy that my horse is called Bramble.', 'your horse', 'name', 'Bramble'],
    ['I decide that from now on my horse is called Thistle.', 'your horse', 'name', 'Thistle'],
    ['I name my horse Bramble and tie him to the mill post.', 'your horse', 'name', 'Bramble'],
    ['I write a letter to my sister Maren in the capital.', 'your sister', 'name', 'Maren'],
    ['I swear on my sword, which I call Nightreed.', 'your sword', 'name', 'Nightreed'],
    ['I write in my journal, which I have titled Roadsong.', 'your journal', 'name', 'Roadsong'],
    ['I remind the captain that my ship is the Saltwren.', 'your ship', 'name', 'Saltwren'],
    ['I tie my boat, the Driftmoss, to the pier.', 'your boat', 'name', 'Driftmoss'],
    ['Maren is my sister, and she is late.', 'your sister', 'name', 'Maren'],
    ['I check my compass, engraved with the word Northward.', 'your compass', 'inscription', 'Northward'],
    ['I hide my key under the loose stone by the well.', 'your key', 'kept', 'under the loose stone by the well'],
    ['My name is Ash Varrow, I tell her.', 'you', 'name', 'Ash Varrow'],
  ])('%s', (action, entity, attribute, value) => {
    expect(said(action)).toContainEqual({ entity, attribute, value, turn: 4 });
  });

  it('finds nothing where nothing is named, nor in the narrator’s replies', () => {
    expect(said('I look around carefully and walk towards the old church.')).toEqual([]);
    expect(said('I do my best. Then I raise my hand.')).toEqual([]);
    expect(
      extractFacts([{ role: 'assistant', content: 'Your horse is called Bramble, the boy says.', turn: 2 }]),
    ).toEqual([]);
  });

  it('keeps one fact per thing and attribute in an action, and the turn of each', () => {
    const facts = extractFacts([
      { role: 'user', content: 'I name my dog Pepperkin. My dog Pepperkin barks.', turn: 2 },
      { role: 'assistant', content: 'The dog wags.', turn: 2 },
      { role: 'user', content: 'I whistle and my dog Juniper comes running.', turn: 3 },
    ]);
    expect(facts).toEqual([
      { entity: 'your dog', attribute: 'name', value: 'Pepperkin', turn: 2 },
      { entity: 'your dog', attribute: 'name', value: 'Juniper', turn: 3 },
    ]);
  });
});
