#!/usr/bin/env bash
# Turns a stock GPU image (AWS Deep Learning AMI, GCE Deep Learning VM: Ubuntu with the NVIDIA
# driver) into a Squall node image: a Java runtime, this agent distribution at /opt/squall, the
# agent's systemd unit and environment file, and the GPU check the agent makes when it starts.
# Run it as root on the machine the image is made from (from the unpacked agent archive:
# squall-agent-VERSION/image/build-node-image.sh), then snapshot the machine.
#
# usage: build-node-image.sh [--root DIR] [--no-packages] [--no-gpu-check] [--enable]
#   --root DIR      install under DIR instead of / (a disk mounted there, or a test): no apt-get,
#                   no systemctl
#   --no-packages   do not install a Java runtime with apt-get (one is there already)
#   --no-gpu-check  do not ask nvidia-smi (making the image on a machine without a GPU)
#   --enable        enable the agent's unit at boot: only for a node whose /etc/squall/agent.env
#                   is filled in. Nodes the aws and gcp providers launch are started by their
#                   user data instead, which names each machine's node.
set -euo pipefail
me=build-node-image

root=/ packages=yes gpu_check=yes enable=no
while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || { echo "$me: --root needs a directory" >&2; exit 2; }; root=$2; shift 2 ;;
    --no-packages) packages=no; shift ;;
    --no-gpu-check) gpu_check=no; shift ;;
    --enable) enable=yes; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) echo "$me: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# The distribution this script is part of: what gets installed.
dist=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
name=$(basename "$dist")
if [ ! -x "$dist/bin/squall-agent" ] || [ ! -d "$dist/lib" ]; then
  echo "$me: $dist is not an unpacked agent distribution: run the copy in squall-agent-VERSION/image/" >&2
  exit 1
fi
if [ "$root" = / ]; then
  [ "$(id -u)" = 0 ] || { echo "$me: run it as root (or with --root DIR)" >&2; exit 1; }
  root=""
else
  mkdir -p "$root"
  root=$(cd "$root" && pwd -P)
  packages=no
fi

# 1. A Java 17+ runtime, unless one is on the PATH already.
java_major() { java -version 2>&1 | sed -n 's/^[^"]* version "\([0-9]*\).*/\1/p' | head -n 1; }
if [ "$packages" = yes ]; then
  major=$(command -v java >/dev/null && java_major || true)
  if [ -z "$major" ] || [ "$major" -lt 17 ]; then
    echo "$me: installing a Java runtime (openjdk-17-jre-headless)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends openjdk-17-jre-headless
  else
    echo "$me: Java $major is installed"
  fi
fi

# 2. The distribution at /opt/NAME, reached as /opt/squall (the path the providers' user data and
# the unit start the agent by): a new version is a new directory and a new link.
mkdir -p "$root/opt"
if [ -e "$root/opt/squall" ] && [ ! -L "$root/opt/squall" ]; then
  echo "$me: $root/opt/squall exists and is not a link made by this script: move it away first" >&2
  exit 1
fi
if [ "$dist" != "$root/opt/$name" ]; then
  rm -rf "$root/opt/$name"
  cp -a "$dist" "$root/opt/$name"
fi
ln -sfn "$name" "$root/opt/squall"
echo "$me: agent at $root/opt/squall -> $name"

# 3. The unit, the environment file (an existing one is kept: it may be filled in), the token's
# and the jobs' directories.
install -D -m 0644 "$dist/systemd/squall-agent.service" "$root/etc/systemd/system/squall-agent.service"
install -d -m 0755 "$root/etc/squall"
if [ ! -e "$root/etc/squall/agent.env" ]; then
  install -m 0600 "$dist/systemd/agent.env" "$root/etc/squall/agent.env"
fi
install -d -m 0711 "$root/var/lib/squall-agent"
echo "$me: unit at $root/etc/systemd/system/squall-agent.service, environment in $root/etc/squall/agent.env"

# 4. What the agent asks nvidia-smi when it starts without --gpus (GpuProbe): the GPUs it will offer.
if [ "$gpu_check" = yes ]; then
  if ! command -v nvidia-smi >/dev/null; then
    echo "$me: nvidia-smi is not on the PATH: this is not a GPU image with the NVIDIA driver (or pass --no-gpu-check)" >&2
    exit 1
  fi
  if ! gpus=$(nvidia-smi --query-gpu=index,name --format=csv,noheader); then
    echo "$me: nvidia-smi failed: is the NVIDIA driver loaded on this machine? (or pass --no-gpu-check)" >&2
    exit 1
  fi
  # The count, and the type as the agent reports it: the first word of the first name with a
  # digit, before any dash, lower case (NVIDIA H100 80GB HBM3: h100).
  read -r count type < <(printf '%s\n' "$gpus" | awk -F', *' 'NF >= 2 && $2 != "" {
      n++
      if (t == "") { k = split($2, w, " "); for (i = 1; i <= k; i++) if (w[i] ~ /[0-9]/) { t = tolower(w[i]); sub(/-.*/, "", t); break } }
    } END { print n + 0, t }')
  if [ "$count" -eq 0 ]; then
    echo "$me: nvidia-smi lists no GPU" >&2
    exit 1
  fi
  echo "$me: nvidia-smi reports $count GPUs of type ${type:-unknown}"
fi

# 5. systemd learns of the unit; it starts at boot only when asked.
if [ -z "$root" ] && command -v systemctl >/dev/null; then
  systemctl daemon-reload
  if [ "$enable" = yes ]; then
    systemctl enable squall-agent.service
  fi
elif [ "$enable" = yes ]; then
  # What systemctl enable does, for a root systemd does not run.
  mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
  ln -sfn /etc/systemd/system/squall-agent.service "$root/etc/systemd/system/multi-user.target.wants/squall-agent.service"
fi
echo "$me: done"
