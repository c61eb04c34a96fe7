import { insightsResource } from './insights.js';
import { schemaResource } from './schema.js';
import { tableTemplate } from './table.js';
import { rowsTemplate } from './rows.js';

export const resources = [insightsResource, schemaResource];
export const templates = [tableTemplate, rowsTemplate];
