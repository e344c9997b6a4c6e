package scheduler

// maxNodeScore is the framework's MaxNodeScore.
const maxNodeScore = 100

// defaultNormalize rescales scores to 0..maxNodeScore relative to the
// largest one, reversed when reverse is set (plugins/helper,
// DefaultNormalizeScore). When every score is 0 the scores stay 0, or all
// become maxNodeScore when reversed.
func defaultNormalize(scores []int64, reverse bool) {
	var hi int64
	for _, s := range scores {
		hi = max(hi, s)
	}
	if hi == 0 {
		if reverse {
			for i := range scores {
				scores[i] = maxNodeScore
			}
		}
		return
	}
	for i, s := range scores {
		s = maxNodeScore * s / hi
		if reverse {
			s = maxNodeScore - s
		}
		scores[i] = s
	}
}
