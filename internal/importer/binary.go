package importer

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// sniffLen is how much of an input CheckText looks at: enough to see a text file for what it is.
const sniffLen = 8 << 10

// CheckText refuses an input that is not plain text (an Anki package, a PDF, any binary), in one
// line naming what it looks like, so it never becomes a card full of mojibake. Callers run it
// before Import; a caller that understands some binary format (an .apkg importer) checks for
// that first.
func CheckText(name string, src []byte) error {
	if kind := binaryKind(src); kind != "" {
		return fmt.Errorf("%s: not a plain-text card file (%s); nothing was imported", name, kind)
	}
	return nil
}

// binaryKind says what src looks like when it is not UTF-8 text, or "" when it is.
func binaryKind(src []byte) string {
	for _, m := range []struct{ magic, kind string }{
		{"PK\x03\x04", "it is a ZIP archive, such as an Anki .apkg"},
		{"PK\x05\x06", "it is an empty ZIP archive"},
		{"%PDF-", "it is a PDF document"},
		{"SQLite format 3\x00", "it is an SQLite database"},
		{"\x1f\x8b", "it is gzip-compressed"},
		{"\xff\xfe", "it is UTF-16 text: save it as UTF-8"},
		{"\xfe\xff", "it is UTF-16 text: save it as UTF-8"},
	} {
		if bytes.HasPrefix(src, []byte(m.magic)) {
			return m.kind
		}
	}
	head := src[:min(len(src), sniffLen)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "it holds binary data"
	}
	if len(head) < len(src) { // the cut may split a character: drop its incomplete start
		for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRune(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	if !utf8.Valid(head) {
		return "it is not UTF-8 text: save it as UTF-8"
	}
	return ""
}
