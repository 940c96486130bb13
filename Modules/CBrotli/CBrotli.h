#pragma once
// Brotli's encoder for the test server's /brotli route. Only CourierTestServer imports this
// module; the Courier library never links brotli (libcurl does its own decoding).
#include <brotli/encode.h>
