// Package agent reads upstream CCM's agent configuration file
// (/etc/choria/ccm/agent.yaml, as upstream's packaged unit names it; the
// config.yaml of upstream's docs when only that exists), so a host running
// `ccm agent` switches to this engine by changing one line of its unit
// file.
//
// Every upstream key is understood: manifests, external_data_url,
// cache_dir, monitor_port, log_level, nats_context, health_check_interval,
// interval and registration. Unknown keys and bad values are errors with
// their line and column; upstream's defaults apply to what is left out.
package agent
