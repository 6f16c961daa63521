package editor

import "strings"

// Op is a diff line's kind.
type Op byte

// Diff line kinds.
const (
	Same Op = ' '
	Del  Op = '-'
	Add  Op = '+'
)

// Line is one line of a diff.
type Line struct {
	Op   Op
	Text string
	A, B int // 1-based line numbers in the old and new text (0 when absent there)
}

// Diff returns a line diff from a to b: a longest common subsequence, so unchanged lines
// between edits stay aligned. Cards are capped at MaxCardBytes, which bounds the table.
func Diff(a, b string) []Line {
	x, y := splitLines(a), splitLines(b)
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []Line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out = append(out, Line{Same, x[i], i + 1, j + 1})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]): // deletions before additions
			out = append(out, Line{Del, x[i], i + 1, 0})
			i++
		default:
			out = append(out, Line{Add, y[j], 0, j + 1})
			j++
		}
	}
	return out
}

// Changed reports whether a diff has any added or deleted line.
func Changed(d []Line) bool {
	for _, l := range d {
		if l.Op != Same {
			return true
		}
	}
	return false
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
