#pragma once
// zlib for the test server's compressed routes (/gzip, /deflate). Only CourierTestServer
// imports this module; the Courier library itself never links zlib.
#include <zlib.h>
