// The CommonJS project's entry: every module by `require`, no top-level `await`.
const pesakit = require('pesakit');
const sandbox = require('pesakit/sandbox');
const dashboard = require('pesakit/dashboard');
const testing = require('pesakit/testing');
const sqlite = require('pesakit/sqlite');
const postgres = require('pesakit/postgres');
const expressMiddleware = require('pesakit/express');
const express = require('express');
const { firstDay } = require('./first-day.js');

firstDay({
  ...JSON.parse(process.argv[2]),
  pesakit,
  sandbox,
  dashboard,
  testing,
  sqlite,
  postgres,
  expressMiddleware,
  express,
  report,
})
  .catch((error) => report('first day', false, error?.stack ?? String(error)))
  .finally(() => process.exit(0));

function report(feature, ok, detail) {
  console.log(JSON.stringify({ feature, ok, detail }));
}
