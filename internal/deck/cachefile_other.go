//go:build !unix

package deck

import "os"

func readCacheFile(path string) ([]byte, error) { return os.ReadFile(path) }
