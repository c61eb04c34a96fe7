import { readQuery } from './read-query.js';
import { listTables } from './list-tables.js';
import { describeTable } from './describe-table.js';
import { appendInsight } from './append-insight.js';
import { explainQuery } from './explain-query.js';
import { listIndexes } from './list-indexes.js';
import { sampleRows } from './sample-rows.js';
import { searchSchemaTool } from './search-schema.js';
import { writeQuery } from './write-query.js';
import { createTable } from './create-table.js';
import { sqliteResultsPage } from './sqlite-results-page.js';

export const readTools = [readQuery, listTables, describeTable, appendInsight, explainQuery, listIndexes, sampleRows, searchSchemaTool, sqliteResultsPage];
export const writeTools = [writeQuery, createTable];
