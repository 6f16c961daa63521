package server

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
)

// compressed gzips text responses for clients that accept gzip (an explicit q=0 refuses it),
// leaving alone responses that set their own Content-Encoding and bodies too small to gain. The
// fastest level: a card page is up to 300 KB of SVG markup, which it still shrinks about eight
// times, at a fraction of the CPU of the default level.
func compressed() func(http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(gzip.BestSpeed), gzhttp.ContentTypes([]string{
		"text/html", "text/css", "text/javascript", "application/json", "image/svg+xml",
	}))
	if err != nil {
		panic(err) // the options are constants: an error here is a programming mistake
	}
	return func(next http.Handler) http.Handler { return wrap(next) }
}
