package rebalance

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestZZWhich(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/FuzzDecode/*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		line := strings.SplitN(string(b), "\n", 3)[1]
		s, _ := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")"))
		_, err := Decode(bytes.NewReader([]byte(s)), WebLimits)
		t.Logf("%s: %v", filepath.Base(f), err)
	}
}
