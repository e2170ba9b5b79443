// Stories and their messages, always scoped by the owner. Writes that must land together (a reply
// with its usage row and the end of the generation lease; a retry's replacement) are one statement
// or a transaction, so a process killed mid-turn leaves either the whole reply or none of it. Each
// use case is its own module beside this one; the repository hands them the database.
import type { Db } from '../../client';
import type { LeaseAndAppendInput } from '../story-turn';
import { storyMessageReads } from '../story-message-reads';
import { applyFold } from './apply-fold';
import { createStory, type NewStory } from './create-story';
import { appendAction, leaseAndAppend, startAttempt } from './player-actions';
import { saveReply, type FinishedReply } from './save-reply';
import {
  findOwned,
  setTitle,
  updateMemory,
  updateSettings,
  type MemoryPanelSave,
  type SettingsChange,
} from './story-fields';
import { acquireLease, extendLease, isGenerating, leaseOwned, releaseAllLeases, releaseLease } from './story-leases';

export type { MessageHead, MessageRecord, StoryRecord } from '../story-records';

export function createStoriesRepository(db: Db) {
  return {
    create(input: NewStory) {
      return createStory(db, input);
    },
    findOwned(storyId: number, userId: number) {
      return findOwned(db, storyId, userId);
    },
    leaseOwned(storyId: number, userId: number, now: Date, until: Date, maxStoredBytes?: number) {
      return leaseOwned(db, storyId, userId, now, until, maxStoredBytes);
    },
    leaseAndAppend(input: LeaseAndAppendInput) {
      return leaseAndAppend(db, input);
    },
    acquireLease(storyId: number, now: Date, until: Date) {
      return acquireLease(db, storyId, now, until);
    },
    releaseLease(storyId: number) {
      return releaseLease(db, storyId);
    },
    extendLease(storyId: number, until: Date) {
      return extendLease(db, storyId, until);
    },
    releaseAllLeases() {
      return releaseAllLeases(db);
    },
    isGenerating(storyId: number, now: Date) {
      return isGenerating(db, storyId, now);
    },
    ...storyMessageReads(db),
    appendAction(storyId: number, content: string, now: Date) {
      return appendAction(db, storyId, content, now);
    },
    startAttempt(messageId: number) {
      return startAttempt(db, messageId);
    },
    saveReply(input: FinishedReply) {
      return saveReply(db, input);
    },
    applyFold(
      storyId: number,
      expected: { throughId: number; memory: string },
      throughId: number,
      memory: string,
      now: Date,
    ) {
      return applyFold(db, storyId, expected, throughId, memory, now);
    },
    updateSettings(input: SettingsChange) {
      return updateSettings(db, input);
    },
    updateMemory(input: MemoryPanelSave) {
      return updateMemory(db, input);
    },
    setTitle(storyId: number, title: string) {
      return setTitle(db, storyId, title);
    },
  };
}
export type StoriesRepository = ReturnType<typeof createStoriesRepository>;
