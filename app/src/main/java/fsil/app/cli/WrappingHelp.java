package fsil.app.cli;

import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * picocli's help with its text broken at spaces only. picocli wraps with the JDK's line {@code BreakIterator},
 * which breaks after '.', '/', ':' and before '[' (so {@code config.}/{@code json}, {@code k8s:}/{@code //...},
 * {@code pretrained-mlp}/{@code [hidden=...]}); here every description, option and parameter text, and the footer,
 * is wrapped by {@link TextWrap} to lines that fit, which picocli then lays out as they are.
 */
final class WrappingHelp extends Help {
    WrappingHelp(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    private int width() {
        return commandSpec().usageMessage().width();
    }

    @Override
    public String description(Object... params) {
        return paragraphs(commandSpec().usageMessage().description(), params);
    }

    @Override
    public String footer(Object... params) {
        return paragraphs(commandSpec().usageMessage().footer(), params);
    }

    /** Each paragraph formatted as picocli does (%n, %%) and wrapped; lines that fit are kept as written. */
    private String paragraphs(String[] lines, Object... params) {
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            String text = String.format(line, params);
            sb.append(TextWrap.fit(text, width())).append(System.lineSeparator());
        }
        return sb.toString();
    }

    @Override
    public Layout createDefaultLayout(List<OptionSpec> options, List<PositionalParamSpec> positionals,
                                      ColorScheme scheme) {
        Layout base = super.createDefaultLayout(options, positionals, scheme);
        Column[] columns = base.textTable().columns();
        IOptionRenderer optionRenderer = base.optionRenderer();
        IParameterRenderer parameterRenderer = base.parameterRenderer();
        return new Layout(scheme, base.textTable(),
                (option, labels, s) -> rewrap(optionRenderer.render(option, labels, s), columns, s),
                (param, labels, s) -> rewrap(parameterRenderer.render(param, labels, s), columns, s));
    }

    /**
     * The rows of one option or parameter with its description (the last column) wrapped at spaces to the room
     * the column has, continuation lines indented by two as picocli indents them; on the first row, an option
     * name wider than its column takes that much room from the description.
     */
    private static Text[][] rewrap(Text[][] rows, Column[] columns, ColorScheme scheme) {
        int last = columns.length - 1;
        int room = columns[last].width - columns[last].indent;
        List<Text[]> out = new ArrayList<>();
        for (int r = 0; r < rows.length; r++) {
            Text[] row = rows[r];
            if (row.length != columns.length || row[last] == null) {
                out.add(row);
                continue;
            }
            int used = 0;
            int cols = 0;
            for (int c = 0; c < last; c++) {
                used += row[c] == null ? 0 : row[c].plainString().length();
                cols += columns[c].width;
            }
            int overflow = Math.max(0, used + (used > cols ? 1 : 0) - cols);
            String description = row[last].plainString();
            if (description.length() <= room - overflow) {
                out.add(row);
                continue;
            }
            List<String> lines = TextWrap.lines("", description, 0, room - overflow);
            List<String> rest = lines.size() > 1 ? TextWrap.lines("  ", String.join(" ", lines.subList(1,
                    lines.size())), 2, room) : List.of();
            Text[] first = row.clone();
            first[last] = scheme.text(lines.get(0));
            out.add(first);
            for (String line : rest) {
                Text[] next = new Text[row.length];
                Arrays.fill(next, scheme.text(""));
                next[last] = scheme.text(line);
                out.add(next);
            }
        }
        return out.toArray(new Text[0][]);
    }
}
