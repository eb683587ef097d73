// The seeds' reference semantics on Node, as a benchmark peer (run by benchmarks/compare.py).
//
//   node benchmarks/reference.mjs target-scope FILE      # JSON Lines of {"original":[...],"rewritten":[...]}
//   node benchmarks/reference.mjs sentinels FILE         # JSON Lines of {"baseline":{...},"proposed":{...}}
//   node benchmarks/reference.mjs --set-lookup target-scope FILE
//
// Writes one JSON.stringify line per input line to standard output, in input order.
// The checks follow the evaluate functions of the seeds (shared/seeds/000_*.txt and
// 004_*.txt): duplicate IDs collapse, lists are sorted with the default (UTF-16 code
// unit) sort, and an ID is looked up in the other side's sorted list by a linear scan,
// as the seeds do. --set-lookup looks IDs up in a Set instead (not the seeds' cost;
// for comparison only). There is no input validation, as in the seeds.

import fs from 'node:fs';

function targetScopeLinear(record) {
  const before = Array.from(new Set(record.original)).sort();
  const after = Array.from(new Set(record.rewritten)).sort();
  const missing = before.filter((id) => after.indexOf(id) === -1);
  const added = after.filter((id) => before.indexOf(id) === -1);
  return { missing, added, preserved: missing.length === 0 && added.length === 0 };
}

function targetScopeSet(record) {
  const beforeSet = new Set(record.original);
  const afterSet = new Set(record.rewritten);
  const missing = Array.from(beforeSet).sort().filter((id) => !afterSet.has(id));
  const added = Array.from(afterSet).sort().filter((id) => !beforeSet.has(id));
  return { missing, added, preserved: missing.length === 0 && added.length === 0 };
}

function sentinels(record) {
  const { baseline, proposed } = record;
  const missing = [];
  const changed = [];
  for (const id of Object.keys(baseline).sort()) {
    if (!Object.prototype.hasOwnProperty.call(proposed, id)) missing.push(id);
    else if (proposed[id] !== baseline[id]) changed.push(id);
  }
  return { missing, changed, intact: missing.length === 0 && changed.length === 0 };
}

// Output is gathered into ~64 KiB strings and written synchronously to file descriptor 1.
const pending = [];
let pendingLength = 0;

function writeAll(text) {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(1, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}

function emit(line) {
  pending.push(line);
  pendingLength += line.length + 1;
  if (pendingLength >= 65536) flush();
}

function flush() {
  if (pending.length === 0) return;
  writeAll(pending.join('\n') + '\n');
  pending.length = 0;
  pendingLength = 0;
}

// Lines are split on the newline byte (never inside a UTF-8 sequence), 1 MiB at a time.
function eachLine(path, handle) {
  const fd = fs.openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carried = [];
  let number = 0;
  for (;;) {
    const size = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (size === 0) break;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end === -1 || end >= size) break;
      const piece = chunk.subarray(start, end);
      const text = carried.length ? Buffer.concat([...carried, piece]).toString('utf8') : piece.toString('utf8');
      carried = [];
      handle(text, ++number);
      start = end + 1;
    }
    if (start < size) carried.push(Buffer.from(chunk.subarray(start, size)));
  }
  fs.closeSync(fd);
  if (carried.length) handle(Buffer.concat(carried).toString('utf8'), ++number);
}

const args = process.argv.slice(2);
const setLookup = args[0] === '--set-lookup';
if (setLookup) args.shift();
const [check, path] = args;
const checks = { 'target-scope': setLookup ? targetScopeSet : targetScopeLinear, sentinels };
if (!checks[check] || !path) {
  process.stderr.write('usage: node reference.mjs [--set-lookup] target-scope|sentinels FILE\n');
  process.exit(2);
}
const evaluate = checks[check];
eachLine(path, (text, number) => {
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new Error(`line ${number}: ${error.message}`);
  }
  emit(JSON.stringify(evaluate(record)));
});
flush();
