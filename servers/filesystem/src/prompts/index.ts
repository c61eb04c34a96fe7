import { summarizeFile } from './summarize-file.js';
import { findDefinition } from './find-definition.js';
import { reviewRecentEdits } from './review-recent-edits.js';

export const prompts = [summarizeFile, findDefinition, reviewRecentEdits];
