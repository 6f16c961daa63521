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

// MaxDiffCells bounds the table of a line diff: lines changed in the old text times lines
// changed in the new, after their common start and end are set aside. At 4 bytes a cell that
// is 16 MB; beyond it a diff shows the changed lines as replaced (Diff's coarse result).
const MaxDiffCells = 4_000_000

// Diff returns a line diff from a to b: a longest common subsequence, so unchanged lines
// between edits stay aligned. Its cost is the product of the changed lines' counts, so when
// that is over MaxDiffCells the changed middle is shown as deleted then added, and coarse says
// so: a card may be 64 KiB of one-character lines, and any signed-in user can ask for a diff.
func Diff(a, b string) (out []Line, coarse bool) {
	x, y := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	for i := range pre {
		out = append(out, Line{Same, x[i], i + 1, i + 1})
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	if int64(len(mx))*int64(len(my)) > MaxDiffCells {
		for i, l := range mx {
			out = append(out, Line{Del, l, pre + i + 1, 0})
		}
		for j, l := range my {
			out = append(out, Line{Add, l, 0, pre + j + 1})
		}
		coarse = true
	} else {
		out = lcsDiff(out, mx, my, pre)
	}
	for k := suf; k > 0; k-- {
		out = append(out, Line{Same, x[len(x)-k], len(x) - k + 1, len(y) - k + 1})
	}
	return out, coarse
}

// lcsDiff appends the diff of x and y, whose first lines are line off+1 of their texts.
func lcsDiff(out []Line, x, y []string, off int) []Line {
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
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out = append(out, Line{Same, x[i], off + i + 1, off + j + 1})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]): // deletions before additions
			out = append(out, Line{Del, x[i], off + i + 1, 0})
			i++
		default:
			out = append(out, Line{Add, y[j], 0, off + j + 1})
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
