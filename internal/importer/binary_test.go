package importer

import (
	"bytes"
	"strings"
	"testing"
)

func TestCheckTextRefusesBinaries(t *testing.T) {
	zipHead := []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00collection.anki2")
	for _, tc := range []struct {
		name string
		src  []byte
		want string // "" for accepted
	}{
		{"deck.apkg", zipHead, "deck.apkg: not a plain-text card file (it is a ZIP archive, such as an Anki .apkg); nothing was imported"},
		{"notes.pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), "(it is a PDF document)"},
		{"blob.bin", []byte("question?\x00\x01\x02"), "(it holds binary data)"},
		{"latin1.txt", []byte("Caf\xe9 question\nanswer\n- x\n"), "(it is not UTF-8 text: save it as UTF-8)"},
		{"utf16.txt", []byte("\xff\xfeW\x00h\x00"), "UTF-16"},
		{"card.txt", []byte("What is a rebalance?\nanswer\n- a — b ✓\n"), ""},
		{"empty.txt", nil, ""},
	} {
		err := CheckText(tc.name, tc.src)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: refusal is more than one line: %q", tc.name, err)
		}
	}
}

// A multi-byte character cut by the sniffing window is not mistaken for invalid text.
func TestCheckTextSplitCharacter(t *testing.T) {
	src := append(bytes.Repeat([]byte("a"), sniffLen-1), []byte("é and more text")...)
	if err := CheckText("long.txt", src); err != nil {
		t.Fatal(err)
	}
	bad := append(bytes.Repeat([]byte("a"), sniffLen-2), 0xe9, 'x', 'y')
	if err := CheckText("bad.txt", bad); err == nil {
		t.Fatal("an invalid byte inside the window was accepted")
	}
}
