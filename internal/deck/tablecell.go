package deck

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// emptyCorner renders a header cell with nothing in it (the corner of a table whose first
// column labels the rows: "|  | eager | cooperative |") as <td></td>: an empty <th> announces a
// header with no name to screen readers, which axe-core reports. Every other cell is rendered
// by goldmark's own table renderer.
type emptyCorner struct {
	inner renderer.NodeRenderer
	cell  renderer.NodeRendererFunc
}

func newEmptyCorner() *emptyCorner { return &emptyCorner{inner: extension.NewTableHTMLRenderer()} }

// SetOption passes the renderer's options (XHTML and the like) on to the table renderer.
func (e *emptyCorner) SetOption(name renderer.OptionName, value any) {
	if o, ok := e.inner.(renderer.SetOptioner); ok {
		o.SetOption(name, value)
	}
}

func (e *emptyCorner) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	e.inner.RegisterFuncs(cellCatcher{&e.cell})
	reg.Register(east.KindTableCell, e.render)
}

func (e *emptyCorner) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if n.Parent() != nil && n.Parent().Kind() == east.KindTableHeader && !n.HasChildren() {
		if entering {
			_, _ = w.WriteString("<td></td>\n")
		}
		return ast.WalkSkipChildren, nil
	}
	return e.cell(w, src, n, entering)
}

// cellCatcher keeps the table renderer's cell function and drops the rest (those stay
// registered by the table extension itself).
type cellCatcher struct{ cell *renderer.NodeRendererFunc }

func (c cellCatcher) Register(k ast.NodeKind, f renderer.NodeRendererFunc) {
	if k == east.KindTableCell {
		*c.cell = f
	}
}
