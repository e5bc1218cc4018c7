// Validates glTF files with the Khronos glTF-Validator (npm package gltf-validator) and prints
// every message. Usage: node validate.js VALIDATOR_MODULE_DIR FILE...
// Exit status: 0 no errors, 1 any error (or a file that cannot be validated), 2 usage.
'use strict';
const fs = require('fs');
const path = require('path');

if (process.argv.length < 4) {
    console.error('usage: node validate.js VALIDATOR_MODULE_DIR FILE...');
    process.exit(2);
}
const validator = require(path.resolve(process.argv[2]));
const files = process.argv.slice(3);
const severities = ['error', 'warning', 'info', 'hint'];

async function validate(file) {
    const data = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(data, {
        uri: path.basename(file),
        maxIssues: 0,
        writeTimestamp: false,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, d) =>
                err ? reject(err.toString()) : resolve(new Uint8Array(d)));
        }),
    });
    const issues = report.issues;
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
                `${issues.numInfos} infos, ${issues.numHints} hints`);
    for (const m of issues.messages)
        console.log(`  ${severities[m.severity] || m.severity} ${m.code} ${m.pointer || ''}: ` +
                    `${m.message}`);
    return issues.numErrors;
}

(async () => {
    let failed = 0;
    for (const f of files) {
        try {
            if (await validate(f) > 0)
                failed++;
        } catch (e) {
            console.log(`${f}: cannot be validated: ${e}`);
            failed++;
        }
    }
    console.log(`${files.length} files validated, ${failed} with errors`);
    process.exit(failed ? 1 : 0);
})();
