package script

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// hostPortsArg reads a list of host ports, each [PROTOCOL/][HOSTIP:]PORT
// (as model.HostPort prints them): 80, UDP/53, TCP/10.0.0.1:8080.
func hostPortsArg(c Command, key string) ([]model.HostPort, error) {
	v := c.Arg(key, "")
	if v == "" {
		return nil, nil
	}
	var out []model.HostPort
	for _, f := range strings.Split(v, ",") {
		var hp model.HostPort
		rest := f
		if proto, r, ok := strings.Cut(rest, "/"); ok {
			hp.Protocol, rest = proto, r
		}
		if i := strings.LastIndex(rest, ":"); i >= 0 {
			hp.HostIP, rest = rest[:i], rest[i+1:]
		}
		n, err := strconv.ParseInt(rest, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not [PROTOCOL/][HOSTIP:]PORT", key, f)
		}
		hp.Port = int32(n)
		out = append(out, hp)
	}
	if err := model.CheckHostPorts(key, out); err != nil {
		return nil, err
	}
	return out, nil
}
