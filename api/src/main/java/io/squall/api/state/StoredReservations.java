package io.squall.api.state;

import io.squall.api.store.ReservationRow;
import io.squall.core.model.Reservation;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** An advanced reservation to and from its row. */
final class StoredReservations {
  private StoredReservations() {}

  static ReservationRow row(Reservation r) {
    return new ReservationRow(r.name(), r.start(), r.end(), String.join(",", r.nodes()), r.partition(),
        String.join(",", r.users()), String.join(",", r.accounts()),
        String.join(",", Arrays.stream(Reservation.Flag.values()).filter(r::has).map(Enum::name).toList()));
  }

  static Reservation reservation(ReservationRow row) {
    Set<Reservation.Flag> flags = EnumSet.noneOf(Reservation.Flag.class);
    list(row.flags()).forEach(f -> flags.add(Reservation.Flag.valueOf(f)));
    return new Reservation(row.name(), row.startTime(), row.endTime(), list(row.nodes()), row.partitionName(),
        list(row.users()), list(row.accounts()), flags);
  }

  private static List<String> list(String text) {
    return text == null || text.isEmpty() ? List.of() : List.of(text.split(","));
  }
}
