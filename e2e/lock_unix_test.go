//go:build unix

package e2e

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on f until the returned unlock.
func lockFile(f *os.File) (unlock func(), err error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}
