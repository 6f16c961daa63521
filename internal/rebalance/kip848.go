package rebalance

type kmember struct{}

type kip848 struct{ s *sim }

func newKIP848(s *sim) *kip848                         { return &kip848{s: s} }
func (k *kip848) settled() bool                        { return true }
func (k *kip848) memberStarted(m *member)              {}
func (k *kip848) memberStopping(m *member, down int64) {}
func (k *kip848) memberCrashed(m *member)              {}
func (k *kip848) pollTimeout(m *member)                {}
func (k *kip848) pollReturned(m *member)               {}
func (k *kip848) configChanged(why string)             {}
