// Package content embeds the bundled deck: the Kafka rebalancing cards.
package content

import "embed"

// FS holds every card (markdown files in topic folders).
//
//go:embed *
var FS embed.FS
