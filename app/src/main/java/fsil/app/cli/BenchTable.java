package fsil.app.cli;

import fsil.core.bench.BenchResult;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Text form of a {@link BenchResult}: the title, a column-aligned table, then the notes prefixed with '#'. */
final class BenchTable {
    private BenchTable() {
    }

    static String format(BenchResult r) {
        List<String> cols = r.columns();
        List<List<String>> cells = new ArrayList<>();
        cells.add(cols);
        for (List<Object> row : r.rows()) {
            cells.add(row.stream().map(BenchTable::cell).toList());
        }
        int[] width = new int[cols.size()];
        for (List<String> row : cells) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder sb = new StringBuilder(r.title()).append('\n');
        for (List<String> row : cells) {
            for (int c = 0; c < width.length; c++) {
                String v = row.get(c);
                if (c == 0) { // labels left-aligned, numbers right-aligned
                    sb.append(v).append(" ".repeat(width[c] - v.length()));
                } else {
                    sb.append("  ").append(" ".repeat(width[c] - v.length())).append(v);
                }
            }
            sb.append('\n');
        }
        for (String n : r.notes()) {
            sb.append("# ").append(n).append('\n');
        }
        return sb.toString();
    }

    /** Integers as they are; other numbers with 4 significant digits (scientific outside 1e-3 .. 1e7). */
    static String cell(Object v) {
        if (!(v instanceof Number n)) {
            return String.valueOf(v);
        }
        if (n instanceof Integer || n instanceof Long) {
            return n.toString();
        }
        double x = n.doubleValue();
        if (!Double.isFinite(x)) {
            return Double.toString(x);
        }
        if (x != 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e7)) {
            return String.format(Locale.ROOT, "%.3e", x);
        }
        BigDecimal d = new BigDecimal(x).round(new MathContext(4));
        if (d.precision() < 4) {
            d = d.setScale(d.scale() + 4 - d.precision()); // 1 -> 1.000, 0.5 -> 0.5000
        }
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}
