import { commitMessage } from './commit-message.js';
import { reviewBranch } from './review-branch.js';
import { explainFileHistory } from './explain-file-history.js';

export const prompts = [commitMessage, reviewBranch, explainFileHistory];
