// Starts the cache-tests suite's own origin server on 127.0.0.1 only, on a port the kernel
// picks, and prints that port as `PORT <n>` on stdout once it listens.
//
//     node origin.mjs SUITE_DIR
//
// The suite's server listens on every interface and takes its settings from npm's config
// variables; this sets those variables and binds whatever it listens on to loopback before
// loading it, so no address outside the machine is ever served.
import http from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const suite = process.argv[2]
if (!suite) {
  console.error('usage: node origin.mjs SUITE_DIR')
  process.exit(64)
}

process.env.npm_config_protocol = 'http'
process.env.npm_config_port = '0'
// The server writes its pid to this file; the caller already has it.
process.env.npm_config_pidfile = '/dev/null'

const listen = http.Server.prototype.listen
http.Server.prototype.listen = function (port, ...rest) {
  // listen(port) and listen(port, callback) are the forms the suite uses; the host goes between.
  const callbacks = rest.filter(argument => typeof argument === 'function')
  this.once('listening', () => console.log(`PORT ${this.address().port}`))
  return listen.call(this, port, '127.0.0.1', ...callbacks)
}

await import(pathToFileURL(path.join(suite, 'test-engine', 'server', 'server.mjs')).href)
