// The ES module project's entry: every module by `import`.
import express from 'express';
import * as pesakit from 'pesakit';
import * as dashboard from 'pesakit/dashboard';
import * as expressMiddleware from 'pesakit/express';
import * as postgres from 'pesakit/postgres';
import * as sandbox from 'pesakit/sandbox';
import * as sqlite from 'pesakit/sqlite';
import * as testing from 'pesakit/testing';
import { firstDay } from './first-day.js';

function report(feature, ok, detail) {
  console.log(JSON.stringify({ feature, ok, detail }));
}

try {
  const given = JSON.parse(process.argv[2]);
  await firstDay({
    ...given,
    pesakit,
    sandbox,
    dashboard,
    testing,
    sqlite,
    postgres,
    expressMiddleware,
    express,
    report,
  });
} catch (error) {
  report('first day', false, error?.stack ?? String(error));
}
process.exit(0);
