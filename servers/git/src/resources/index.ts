import { branchTemplate, tagTemplate, headTemplate, statusTemplate } from './refs.js';
import { commitTemplate } from './commit.js';
import { fileTemplate } from './file.js';

export const templates = [branchTemplate, tagTemplate, headTemplate, statusTemplate, commitTemplate, fileTemplate];
