#!/bin/sh
# :export FILE.svg paints the theme's own page (issue 23, major 3): under the light theme the
# lesson's text is dark on a light page, not black on black.  The SVG is rendered with
# rsvg-convert (librsvg2-bin, tools/deps.sh) and the text's pixels are read off the picture.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
command -v rsvg-convert >/dev/null || { bad "rsvg-convert (librsvg2-bin, tools/deps.sh) is missing"; finish; exit 1; }
for theme in light default contrast; do
    tm_start 80 24
    tm_run "$MESHCAST lesson st-array --theme $theme 2>$TMPD/err; echo EXIT=\$?"
    check_screen "$theme: the lesson opens" "page 1/"
    tm_keys : ; tm_run "export $TMPD/$theme.svg"
    check_screen "$theme: svg written" "the screen is in .*$theme.svg"
    tm_keys q
    mc_exit_ok "$theme"
    if rsvg-convert -f png -o "$TMPD/$theme.png" "$TMPD/$theme.svg" 2>"$TMPD/rsvg"; then
        ok "$theme: rsvg-convert renders it"
    else bad "$theme: rsvg-convert renders it" "$(head -c 300 "$TMPD/rsvg")"; fi
    python3 "$TUI_DIR/svg_contrast.py" "$TMPD/$theme.svg" "$TMPD/$theme.png" "linear array" > "$TMPD/rep" 2>&1 ||
        echo "bad svg_contrast.py: $(cat "$TMPD/rep")" >> "$TMPD/rep"
    while IFS= read -r l; do
        case $l in ok\ *) ok "$theme: ${l#ok }" ;; *) bad "$theme: ${l#bad }" ;; esac
    done < "$TMPD/rep"
done
finish
