package views

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"
	templruntime "github.com/a-h/templ/runtime"
)

// volatileWriter is a page writer that keeps the markup around a request's changing values
// compressed (gzpage.Writer): it takes those values apart.
type volatileWriter interface {
	WriteVolatile(p []byte) (int, error)
}

// volatile writes text that changes from one request to the next (a timestamp, "due in 3h
// 20m"), escaped, apart from the markup around it when the page's writer can take it so.
func volatile(text string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		s := templ.EscapeString(text)
		if b, ok := w.(*templruntime.Buffer); ok {
			if vw, ok := b.Underlying.(volatileWriter); ok {
				// templ buffers its output: what it holds goes first.
				if err := b.Flush(); err != nil {
					return err
				}
				_, err := vw.WriteVolatile([]byte(s))
				return err
			}
		}
		_, err := io.WriteString(w, s)
		return err
	})
}

// shownAtInput is the hidden shown_at field: the moment the question was shown, new on every
// request.
func shownAtInput(ms int64) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if _, err := io.WriteString(w, `<input type="hidden" name="shown_at" value="`); err != nil {
			return err
		}
		if err := volatile(strconv.FormatInt(ms, 10)).Render(ctx, w); err != nil {
			return err
		}
		_, err := io.WriteString(w, `">`)
		return err
	})
}
