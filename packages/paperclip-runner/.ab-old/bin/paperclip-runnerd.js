#!/usr/bin/env node
import "../dist/runnerd-cli.js";
