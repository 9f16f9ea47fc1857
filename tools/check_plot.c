/* The checker's picture (check_plot.h): SVG written directly. */
#include "tools/check_plot.h"

#include "base/output.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { PW = 400, PH = 340, ML = 74, MR = 16, MT = 58, MB = 52 };

static void escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
}

/* A value as a tick prints it: 1500 as 1500, 2.5e6 as 2.5e6. */
static void tick_text(char *buf, size_t len, double v)
{
    if (v >= 1e6)
        snprintf(buf, len, "%.3g", v);
    else
        snprintf(buf, len, "%.6g", v);
}

typedef struct axes {
    double x0, x1, y0, y1; /* log10 of the ranges */
    double left, top;      /* the panel's origin */
} axes;

static double px(const axes *a, double n)
{
    return a->left + ML + (log10(n) - a->x0) / (a->x1 - a->x0) * (PW - ML - MR);
}

static double py(const axes *a, double y)
{
    return a->top + PH - MB - (log10(y) - a->y0) / (a->y1 - a->y0) * (PH - MT - MB);
}

static void panel(FILE *f, const bspram_plot_panel *p, double left)
{
    axes a = {0, 1, 0, 1, left, 0};
    const double nmin = p->n[0], nmax = p->n[p->k - 1];
    a.x0 = log10(nmin) - 0.15;
    a.x1 = log10(nmax) + 0.15;
    /* y: every positive point and the fit's positive values */
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < p->k; i++)
        if (p->y[i] > 0) {
            lo = fmin(lo, p->y[i]);
            hi = fmax(hi, p->y[i]);
        }
    enum { SAMPLES = 64 };
    double fit[SAMPLES + 1], fn[SAMPLES + 1];
    for (int s = 0; p->judged && s <= SAMPLES; s++) {
        fn[s] = pow(10, log10(nmin) + (log10(nmax) - log10(nmin)) * s / SAMPLES);
        fit[s] = bspram_growth_fit(&p->g, p->bound, fn[s]);
        if (fit[s] > 0) {
            lo = fmin(lo, fit[s]);
            hi = fmax(hi, fit[s]);
        }
    }
    if (!(hi > 0)) { /* nothing positive to draw */
        lo = 1;
        hi = 10;
    }
    a.y0 = floor(log10(lo) - 0.05);
    a.y1 = ceil(log10(hi) + 0.05);
    if (a.y1 <= a.y0)
        a.y1 = a.y0 + 1;

    /* frame, title */
    fprintf(f, "<g class=\"panel\" data-quantity=\"%s\">\n", p->quantity);
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
            left + ML, MT, PW - ML - MR, PH - MT - MB);
    const char *verdict = !p->judged ? "" : p->g.met ? "within " : "grows faster than ";
    fprintf(f, "<text x=\"%.1f\" y=\"22\" font-size=\"15\" font-weight=\"bold\"%s>%s%s%s%s</text>\n",
            left + ML, p->judged && !p->g.met ? " fill=\"#c00\"" : "", p->quantity, p->judged ? ": " : "",
            verdict, p->judged ? bspram_bound_name(p->bound) : "");
    if (p->judged)
        fprintf(f, "<text x=\"%.1f\" y=\"40\" font-size=\"12\">c = %.4g, d = %.4g; growth %.3gx (at most "
                   "%.3gx)</text>\n",
                left + ML, p->g.c, p->g.d, p->g.growth, p->g.allowed);
    /* x ticks at the sweep's sizes */
    for (size_t i = 0; i < p->k; i++) {
        double x = px(&a, p->n[i]);
        char t[32];
        tick_text(t, sizeof t, p->n[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n", x, MT, x, PH - MB);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x,
                PH - MB + 15, t);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">n</text>\n",
            left + ML + (PW - ML - MR) / 2.0, PH - 12);
    /* y ticks at powers of ten, and at 2 and 5 times them over a few decades */
    const bool fine = a.y1 - a.y0 <= 3;
    for (double e = a.y0; e <= a.y1 + 1e-9; e++)
        for (int m = 1; m <= (fine ? 5 : 1); m += m == 1 ? 1 : 3) {
            const double v = m * pow(10, e);
            if (log10(v) > a.y1 + 1e-9)
                break;
            double y = py(&a, v);
            char t[32];
            tick_text(t, sizeof t, v);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", left + ML,
                    y, left + PW - MR, y);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                    left + ML - 5, y + 4, t);
        }
    fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"12\" "
               "text-anchor=\"middle\">%s</text>\n",
            left + 14, MT + (PH - MT - MB) / 2.0, p->quantity);
    /* the fit */
    if (p->judged) {
        fprintf(f, "<polyline class=\"fit\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" "
                   "stroke-dasharray=\"6 4\" points=\"");
        for (int s = 0; s <= SAMPLES; s++)
            if (fit[s] > 0)
                fprintf(f, "%.1f,%.1f ", px(&a, fn[s]), py(&a, fit[s]));
        fputs("\"/>\n", f);
    }
    /* the points */
    for (size_t i = 0; i < p->k; i++)
        if (p->y[i] > 0)
            fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#1f77b4\"><title>n = "
                       "%.6g: %.6g</title></circle>\n",
                    px(&a, p->n[i]), py(&a, p->y[i]), p->n[i], p->y[i]);
    /* the legend */
    double lx = left + ML + 10, ly = MT + 16;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#1f77b4\"/><text x=\"%.1f\" y=\"%.1f\" "
               "font-size=\"11\">measured</text>\n", lx, ly - 4, lx + 10, ly);
    if (p->judged)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"2\" "
                   "stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">c·f(n) + d, f = "
                   "%s</text>\n",
                lx - 6, ly + 12, lx + 6, ly + 12, lx + 10, ly + 16, bspram_bound_name(p->bound));
    fputs("</g>\n", f);
}

int bspram_check_plot(const char *path, const char *title, const bspram_plot_panel *panels, size_t count)
{
    bspram_output out; /* a new file renamed over path once whole (base/output.h) */
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    FILE *f = out.f;
    const int width = (int)count * PW, height = PH + 30;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"12\" fill=\"#444\">", height - 10);
    escaped(f, title);
    fputs("</text>\n", f);
    for (size_t i = 0; i < count; i++)
        panel(f, &panels[i], (double)i * PW);
    fputs("</svg>\n", f);
    return bspram__base_output_close(&out);
}
