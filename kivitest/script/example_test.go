package script_test

import (
	"fmt"

	"github.com/kivi-go/kivi/examples/zonerebalancer"
	"github.com/kivi-go/kivi/kivitest/script"
)

// A user's own controller (examples/zonerebalancer) registered on the
// environment, driven command by command. In a test, the same commands
// go into testdata/*.txt with their outputs, and script.Run checks them
// (see TestOwnController).
func Example_ownController() {
	env := script.NewEnv("testdata", script.WithProcess("zone-rebalancer", zonerebalancer.Rebalancer{ZoneKey: "zone"}))
	for _, line := range []string{
		"node count=2 labels=zone=a",
		"node count=2 labels=zone=b",
		"template name=web cpu=8 memory=8 labels=app=web",
		"deployment name=web template=web replicas=4",
		"pod deployment=web node=1 count=3",
		"pod deployment=web node=3",
		"build",
		"step zone-rebalancer",
		"enabled zone-rebalancer",
	} {
		out, err := env.ExecLine(line)
		if err != nil {
			fmt.Println(err)
			return
		}
		if out != "" {
			fmt.Printf("> %s\n%s\n", line, out)
		}
	}
	// Output:
	// > build
	// node 1: Ready cpu 24/64 mem 24/64 pods 3
	// node 2: Ready cpu 0/64 mem 0/64 pods 0
	// node 3: Ready cpu 8/64 mem 8/64 pods 1
	// node 4: Ready cpu 0/64 mem 0/64 pods 0
	// pod 1: Running on 1 deployment web rs 0 cpu 8
	// pod 2: Running on 1 deployment web rs 0 cpu 8
	// pod 3: Running on 1 deployment web rs 0 cpu 8
	// pod 4: Running on 3 deployment web rs 0 cpu 8
	// deployment web: spec 4 running 4 pending 0 terminating 0
	//
	// > step zone-rebalancer
	// [zone-rebalancer] Evicting pod pod#1 from zone a
	// node 1: Ready cpu 24/64 mem 24/64 pods 3
	// node 2: Ready cpu 0/64 mem 0/64 pods 0
	// node 3: Ready cpu 8/64 mem 8/64 pods 1
	// node 4: Ready cpu 0/64 mem 0/64 pods 0
	// pod 1: Terminating (was running) on 1 deployment web rs 0 cpu 8
	// pod 2: Running on 1 deployment web rs 0 cpu 8
	// pod 3: Running on 1 deployment web rs 0 cpu 8
	// pod 4: Running on 3 deployment web rs 0 cpu 8
	// deployment web: spec 4 running 3 pending 0 terminating 1
	// queue kubelet: [0]
	// queue deployment: [0]
	//
	// > enabled zone-rebalancer
	// not enabled
}
