// Run in a child process of its own, so that its peak RSS is this read's alone: reads a zip
// bomb as a bulk file and prints the error's code and message and how far the peak RSS grew.
import { readAirtimeBulkFile } from '../../src/spreadsheets/index.js';
import { zipBombXlsx } from './zip-bomb.js';

const bomb = zipBombXlsx();
const before = process.resourceUsage().maxRSS * 1024;
const error = await readAirtimeBulkFile(bomb, { fileName: 'staff.xlsx' }).catch((e) => e);
const peakGrowth = process.resourceUsage().maxRSS * 1024 - before;
console.log(JSON.stringify({ code: error?.code, message: error?.message, peakGrowth }));
