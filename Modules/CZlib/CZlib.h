#pragma once
// zlib for the test server's compressed routes (/gzip, /deflate) and for the curl engine's
// WebSocket permessage-deflate (CourierCurl's Binding/ZlibStream.swift, its only caller there).
// The Courier product itself never links zlib; libcurl does already.
#include <zlib.h>
