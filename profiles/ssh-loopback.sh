#!/usr/bin/env bash
# "Another machine" on this one, for the remote-host mode (-Dloopbench.hosts, `load --hosts`) without a second
# machine: OpenSSH's sshd started on a free port of 127.0.0.1 with a host key and a client key generated for it
# (in a temporary directory: the system's sshd, keys and known_hosts are not touched), a hosts file that puts ROLES
# there, then COMMAND run with LOOPBENCH_HOSTS naming that file; at the end sshd stops, and with it every session
# (each remote server stops when its ssh session ends). What it measures is what the remote-host mode adds on top
# of a local start: the ssh session beside each server, the jar copy, the heartbeat; not a network.
#
# Needs OpenSSH's server and client (apt-get install openssh-server openssh-client) and python3 (a free port).
# Usage: profiles/ssh-loopback.sh [--roles LIST] [--hosts-file FILE] -- COMMAND...
# Defaults: --roles proxy,origin --hosts-file target/ssh-loopback/hosts.properties (a fixed path, so that a profile
# line can name it: profiles/ssh-hosts.jmh does).
# e.g. profiles/ssh-loopback.sh -- java -cp target/benchmarks.jar loopbench.suite.Suite --profile profiles/ssh-hosts.jmh
# Exits with COMMAND's status; 2 for bad usage or a missing tool, 1 if sshd does not start.
set -euo pipefail
lb_name=ssh-loopback.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

roles=proxy,origin hosts_file=$lb_root/target/ssh-loopback/hosts.properties
lb_options "--roles LIST=roles" "--hosts-file FILE=hosts_file" "-- COMMAND" -- "$@"
IFS=, read -r -a role_list <<<"$roles"
[ "${#role_list[@]}" -gt 0 ] || lb_fail 2 "--roles '$roles' names no role; valid: client, proxy, origin, echo"
for r in "${role_list[@]}"; do lb_one_of "--roles: role" "$r" client proxy origin echo; done
[ "${#lb_rest[@]}" -gt 0 ] || lb_fail 2 "no COMMAND after --; e.g. -- java -cp target/benchmarks.jar ..."
[ -x /usr/sbin/sshd ] || lb_fail 2 "/usr/sbin/sshd not found; install it: apt-get install openssh-server"
lb_require_tools "apt-get install openssh-client" ssh scp ssh-keygen
lb_require_tools "apt-get install python3" python3
lb_require_java

lb_cleanup_on_exit
lb_tmpdir dir
for key in host_key client_key; do ssh-keygen -q -t ed25519 -N '' -C loopbench-ssh-loopback -f "$dir/$key"; done
cp "$dir/client_key.pub" "$dir/authorized_keys"
sed "s#@DIR@#$dir#g" "$lb_root/profiles/lib/loopback-sshd.conf" >"$dir/sshd_config"
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd # its privilege separation directory
port=$(lb_free_port)
/usr/sbin/sshd -D -e -f "$dir/sshd_config" -o Port="$port" 2>"$dir/sshd.log" &
sshd_pid=$!
lb_track "$sshd_pid"
for ((i = 0; i < 200; i++)); do # sshd writes its pid file once it listens (a probe connection would be in its log)
  [ -s "$dir/sshd.pid" ] && break
  lb_alive "$sshd_pid" || { cat "$dir/sshd.log" >&2; lb_fail 1 "sshd exited before it listened (above)"; }
  sleep 0.1
done
[ -s "$dir/sshd.pid" ] || lb_fail 1 "sshd did not listen on 127.0.0.1:$port within 20 s"

user=$(id -un)
java_path=$(readlink -f "$(command -v "$lb_java")")
mkdir -p "$(dirname "$hosts_file")"
{
  echo "# written by profiles/ssh-loopback.sh: sshd on 127.0.0.1:$port for as long as that script runs"
  for r in "${role_list[@]}"; do echo "$r=ssh://$user@127.0.0.1:$port"; done
  echo "ssh.options=-i $dir/client_key -o UserKnownHostsFile=$dir/known_hosts -o StrictHostKeyChecking=accept-new \
-o LogLevel=ERROR"
  echo "java=$java_path"
} >"$hosts_file"
echo "$lb_name: sshd on 127.0.0.1:$port; ${roles} there ($hosts_file)" >&2
export LOOPBENCH_HOSTS=$hosts_file
rc=0
lb_run "${lb_rest[@]}" || rc=$?
[ -s "$dir/sshd.log" ] && { echo "$lb_name: sshd said:" >&2; cat "$dir/sshd.log" >&2; }
exit "$rc"
