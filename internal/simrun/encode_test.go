package simrun

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// The streaming encoder must write exactly what json.Marshal writes.
func TestEncodeStreamingMatchesMarshal(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"consumer-join", "consumer-rolling-restart", "connect-rolling-restart"} {
		sc, ok := rebalance.Preset(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		res, err := rebalance.Run(context.Background(), sc, rebalance.WebLimits)
		if err != nil {
			t.Fatal(err)
		}
		res.Truncated, res.TruncatedAtMS, res.InvariantFailures = true, 1234, []string{"x"} // the omitempty fields too
		want, _ := json.Marshal(res)
		lw := &LimitedBuffer{Max: 64 << 20}
		if err := EncodeStreaming(lw, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(lw.B.Bytes(), want) {
			t.Fatalf("%s: streaming encoding differs from json.Marshal:\n%.300s\n%.300s", name, lw.B.Bytes(), want)
		}
		small := &LimitedBuffer{Max: len(want) / 2}
		if err := EncodeStreaming(small, res); err != ErrTooLarge || small.B.Len() > len(want)/2 {
			t.Fatalf("%s: over the cap: %v after %d bytes", name, err, small.B.Len())
		}
	}
}
