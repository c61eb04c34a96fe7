import { pageTemplate } from './page.js';

export const templates = [pageTemplate];
