import { summarizeFile } from './summarize-file.js';
import { findDefinition } from './find-definition.js';
import { reviewRecentEdits } from './review-recent-edits.js';

/** Prompts for any server. */
export const readPrompts = [summarizeFile, findDefinition];

/** Prompts about writes: left out under --read-only, where no edit can be made. */
export const writePrompts = [reviewRecentEdits];
