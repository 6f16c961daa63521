// Command nethttp is bench/run.sh's floor for pages: Go's net/http serving the card page's
// gzipped bytes from memory, with nothing else (no router, middleware, session, log or SQL).
// Beside nginx on the same bytes it shows how much of the gap to nginx is net/http's own cost
// per request, which no change inside rehearse's handlers can take back.
//
//	go run ./bench/nethttp -addr 127.0.0.1:18095 -gz card.html.gz
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18095", "address to listen on")
	gzPath := flag.String("gz", "", "the gzipped page to serve at every path")
	flag.Parse()
	page, err := os.ReadFile(*gzPath)
	if err != nil || len(page) == 0 {
		fmt.Fprintln(os.Stderr, "nethttp: -gz must name a gzipped page:", err)
		os.Exit(2)
	}
	// The headers a browser needs for the page, as shared slices, the way rehearse sets them.
	contentType, encoding := []string{"text/html; charset=utf-8"}, []string{"gzip"}
	length := []string{strconv.Itoa(len(page))}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr["Content-Type"], hdr["Content-Encoding"], hdr["Content-Length"] = contentType, encoding, length
		w.Write(page)
	})
	if err := http.ListenAndServe(*addr, h); err != nil {
		fmt.Fprintln(os.Stderr, "nethttp:", err)
		os.Exit(1)
	}
}
