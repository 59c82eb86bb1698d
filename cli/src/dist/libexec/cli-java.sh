# Runs the Squall command line in a JVM set up for a short-lived client: sourced (POSIX sh) by
# bin/squall in a source checkout and by the distribution's bin/squall, which then call
#   cli_java_exec JAVA ARCHIVE CLASSPATH ARGS...
# CLASSPATH is the client's alone (no server or Micronaut classes); a '*' entry is a directory's jars.
#
# Start-up is dominated by loading and linking classes, so the client runs from an AppCDS archive
# (ARCHIVE, -XX:SharedArchiveFile) of the classes a verb loads. The archive is recorded once, in
# the background, by io.squall.cli.StartupTraining (verbs against a stand-in service; no real call
# is made twice) and recorded again when a jar of CLASSPATH or the java binary is newer than it, or
# another java made it. Until then, and whenever the JVM rejects the archive (-Xshare:auto), the
# call runs without it: a missing or stale archive costs time, never a failed call.
# SQUALL_CDS_ARCHIVE=none runs without one; SQUALL_JAVA_OPTS is given to the JVM last. The JVM
# learns the launcher's path (squall.launcher: `squall bench cli` runs the verbs beside it).

# C1 only, one compiler thread and the serial collector: a verb lives for a fraction of a second,
# too short for C2, a second compiler thread or G1's threads to pay off (one compiler thread:
# squeue's median of 21 calls 120 ms, 140 ms with the default count; README: CLI start-up). The
# same options record the archive (it must match them).
cli_java_opts="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -XX:-UsePerfData -Xshare:auto"

cli_java_exec() {
  cli_java=$1 cli_archive=$2 cli_cp=$3
  shift 3
  if [ "$cli_archive" != none ] && cli_archive_fresh "$cli_java" "$cli_archive" "$cli_cp"; then
    # shellcheck disable=SC2086 # the options are several words on purpose
    exec "$cli_java" $cli_java_opts -XX:SharedArchiveFile="$cli_archive" -Dsquall.launcher="$0" ${SQUALL_JAVA_OPTS:-} \
      -cp "$cli_cp" io.squall.cli.Main "$@"
  fi
  cli_java_check
  if [ "$cli_archive" != none ]; then
    (set +e; cli_archive_record) </dev/null >/dev/null 2>&1 &
  fi
  # shellcheck disable=SC2086
  exec "$cli_java" $cli_java_opts -Dsquall.launcher="$0" ${SQUALL_JAVA_OPTS:-} -cp "$cli_cp" io.squall.cli.Main "$@"
}

# cli_archive_fresh JAVA ARCHIVE CLASSPATH: whether ARCHIVE exists, was made by JAVA (ARCHIVE.java
# names it) and is newer than JAVA and every jar: only shell built-ins, no process started.
cli_archive_fresh() {
  [ -f "$2" ] && [ -f "$2.java" ] || return 1
  IFS= read -r cli_made_by < "$2.java" || return 1
  [ "$cli_made_by" = "$1" ] && ! [ "$1" -nt "$2" ] || return 1
  cli_rest=$3
  while [ -n "$cli_rest" ]; do
    cli_entry=${cli_rest%%:*}
    case $cli_rest in *:*) cli_rest=${cli_rest#*:} ;; *) cli_rest= ;; esac
    case $cli_entry in
      *'*') # unquoted: a 'DIR/*' entry is the directory's jars, as java reads it (the archive may be there too)
        for cli_jar in $cli_entry; do
          case $cli_jar in *.jar | *.JAR) [ "$cli_jar" -nt "$2" ] && return 1 ;; esac
        done ;;
      *) [ "$cli_entry" -nt "$2" ] && return 1 ;;
    esac
  done
  return 0
}

# A Java 17+ runtime, or a message saying what to do and exit 1. Runs only when the archive is not
# fresh: a fresh one was recorded by this very java, which passed this check then.
cli_java_check() {
  if [ ! -x "$cli_java" ]; then
    echo "squall: no Java runtime found: install Java 17 or later (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) or set JAVA_HOME" >&2
    exit 1
  fi
  cli_major=$("$cli_java" -version 2>&1 | sed -n 's/^[^"]* version "\([0-9]*\).*/\1/p' | head -n 1)
  if [ -z "$cli_major" ] || [ "$cli_major" -lt 17 ]; then
    echo "squall: $cli_java is Java ${cli_major:-of unknown version}; Squall needs 17 or later: set JAVA_HOME or put a newer java first on the PATH" >&2
    exit 1
  fi
}

# Records the archive once at a time (a directory ARCHIVE.lock; one left by a recorder that died
# is taken over after 10 minutes) into a temporary file, moved into place only when complete.
cli_archive_record() {
  mkdir -p "$(dirname "$cli_archive")" 2>/dev/null || return 0
  if ! mkdir "$cli_archive.lock" 2>/dev/null; then
    [ -n "$(find "$cli_archive.lock" -maxdepth 0 -mmin +10 2>/dev/null)" ] || return 0
    rm -rf "$cli_archive.lock"
    mkdir "$cli_archive.lock" 2>/dev/null || return 0
  fi
  cli_tmp="$cli_archive.$$.tmp"
  # shellcheck disable=SC2086
  if "$cli_java" $cli_java_opts -XX:ArchiveClassesAtExit="$cli_tmp" -Xlog:disable \
      -cp "$cli_cp" io.squall.cli.StartupTraining && [ -s "$cli_tmp" ]; then
    printf '%s\n' "$cli_java" > "$cli_archive.java"
    # Dated when recording began: a jar rebuilt meanwhile is newer, so the archive is recorded again.
    touch -r "$cli_archive.lock" "$cli_tmp"
    mv -f "$cli_tmp" "$cli_archive"
  fi
  rm -f "$cli_tmp"
  rmdir "$cli_archive.lock"
}
