#pragma once
// zstd for the test server's /zstd route. Only CourierTestServer imports this module; the
// Courier library never links zstd (libcurl does its own decoding).
#include <zstd.h>
