package facts

import (
	"context"
	"errors"
	"fmt"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/mem"
)

func hostFacts(ctx context.Context) (map[string]any, error) {
	var errs []error
	out := map[string]any{"info": map[string]any{}}
	info, err := hostInfo(ctx)
	into(out, "info", info, err, &errs)
	return out, errors.Join(errs...)
}

func cpuFacts(ctx context.Context) (map[string]any, error) {
	var errs []error
	out := map[string]any{"info": []any{}}
	info, err := cpu.InfoWithContext(ctx)
	into(out, "info", info, err, &errs)
	return out, errors.Join(errs...)
}

func memoryFacts(ctx context.Context) (map[string]any, error) {
	var errs []error
	swap := map[string]any{"info": map[string]any{}, "devices": []any{}}
	out := map[string]any{"virtual": map[string]any{}, "swap": swap}
	virtual, err := mem.VirtualMemoryWithContext(ctx)
	into(out, "virtual", virtual, err, &errs)
	info, err := mem.SwapMemoryWithContext(ctx)
	into(swap, "info", info, err, &errs)
	devices, err := mem.SwapDevicesWithContext(ctx)
	into(swap, "devices", devices, err, &errs)
	return out, errors.Join(errs...)
}

// partitionFacts lists mounted partitions and the usage of each; a mount
// whose usage cannot be read is left out of usage and reported.
func partitionFacts(ctx context.Context) (map[string]any, error) {
	var errs []error
	out := map[string]any{"partitions": []any{}, "usage": []any{}}
	parts, err := disk.PartitionsWithContext(ctx, false)
	into(out, "partitions", parts, err, &errs)
	var usage []*disk.UsageStat
	for _, p := range parts {
		if ctx.Err() != nil {
			break
		}
		u, err := disk.UsageWithContext(ctx, p.Mountpoint)
		if err != nil {
			errs = append(errs, fmt.Errorf("usage of %s: %w", p.Mountpoint, err))
			continue
		}
		usage = append(usage, u)
	}
	into(out, "usage", usage, nil, &errs)
	return out, errors.Join(errs...)
}
