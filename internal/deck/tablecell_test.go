package deck

import (
	"bytes"
	"strings"
	"testing"
)

func TestEmptyHeaderCornerIsNotAHeader(t *testing.T) {
	src := "| | eager | cooperative |\n|---|---|:---:|\n| pause | all | **some** |\n"
	var out bytes.Buffer
	if err := md.Convert([]byte(src), &out); err != nil {
		t.Fatal(err)
	}
	html := out.String()
	if strings.Contains(html, "<th></th>") || !strings.Contains(html, "<thead>\n<tr>\n<td></td>") {
		t.Errorf("the empty corner is still a header cell:\n%s", html)
	}
	for _, want := range []string{"<th>eager</th>", `<th align="center">cooperative</th>`, "<td>pause</td>", `<td align="center"><strong>some</strong></td>`} {
		if !strings.Contains(html, want) {
			t.Errorf("missing %s in:\n%s", want, html)
		}
	}
}
