#!/usr/bin/env node
import "../dist/sandbox-cli.js";
