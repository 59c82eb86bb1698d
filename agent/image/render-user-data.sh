#!/usr/bin/env bash
# Prints user-data.sh.tmpl with its values filled in, each shell-quoted, for one node:
#   render-user-data.sh ARCHIVE_URL CONTROLLER_URL NODE_NAME TOKEN_FILE aws|gcp|none
# ARCHIVE_URL: the agent archive in the checkpoint bucket (s3://... or gs://...); TOKEN_FILE: a
# file holding that node's own agent token, made with `squall node-token NODE_NAME < SECRET_FILE`
# (not an argument: arguments show in the process list). Never the cluster's agent secret: user
# data is readable by every process on the machine, and a node's token speaks for that node only.
set -euo pipefail
me=render-user-data
if [ $# -ne 5 ]; then
  sed -n '2,7s/^# \{0,1\}//p' "$0" >&2
  exit 2
fi
case "$1" in s3://*|gs://*) ;; *) echo "$me: $1: the archive's address must be s3://... or gs://..." >&2; exit 2 ;; esac
case "$2" in http://*|https://*) ;; *) echo "$me: $2: the controller's address must be http(s)://..." >&2; exit 2 ;; esac
case "$5" in aws|gcp|none) ;; *) echo "$me: $5: the cloud must be aws, gcp or none" >&2; exit 2 ;; esac
[ -r "$4" ] || { echo "$me: $4: no such readable token file" >&2; exit 2; }
case "$(cat "$4")" in
  "squall-node:$3:"?*) ;;
  *) echo "$me: $4 does not hold node $3's own token (squall-node:$3:...): make it with" \
       "'squall node-token $3 < SECRET_FILE'; the cluster's secret must not go into user data" >&2; exit 2 ;;
esac

# 'value', with any ' in it closed, escaped and reopened.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# A replacement text for sed's s|||: its own special characters escaped.
sed_text() { printf '%s' "$1" | sed 's/[\\|&]/\\&/g'; }

template="$(dirname "$(readlink -f "$0")")/user-data.sh.tmpl"
sed -e "s|@ARCHIVE_URL@|$(sed_text "$(quote "$1")")|" \
    -e "s|@CONTROLLER_URL@|$(sed_text "$(quote "$2")")|" \
    -e "s|@NODE_NAME@|$(sed_text "$(quote "$3")")|" \
    -e "s|@AGENT_TOKEN@|$(sed_text "$(quote "$(cat "$4")")")|" \
    -e "s|@INTERRUPTIONS@|$5|" \
    "$template"
