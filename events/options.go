package events

// Option configures the event processes built by ForEvent and All.
type Option func(*config)

// config is the resolved set of options.
type config struct {
	// kernelPanicAssert: count each node's kernel panics and fail the
	// third one (the no_kernel_panic intent). When off the count is not
	// kept at all, so that states do not split on a number nobody reads.
	kernelPanicAssert bool
}

// WithKernelPanicAssert turns on the no_kernel_panic assertion: the third
// kernel panic of one node fails with model.FailKernelPanic.
func WithKernelPanicAssert(on bool) Option {
	return func(c *config) { c.kernelPanicAssert = on }
}

func resolve(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}
