process.stdout.write("paperclip-sandbox: not yet\n");
