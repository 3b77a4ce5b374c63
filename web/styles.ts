/**
 * The site's one stylesheet, inlined into every page (the CSP allows inline styles and nothing
 * external). Mobile first; logical properties so right-to-left needs no mirrored rules. Colours
 * meet WCAG AA: body text 16:1, muted text 7:1, the brass accent 8.7:1 on white.
 */
export const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#faf8f5;color:#1d1d1f;font-family:system-ui,"Segoe UI","Noto Sans Hebrew","Arial Hebrew","DejaVu Sans",Arial,sans-serif;font-size:1.0625rem;line-height:1.6}
a{color:#6b4200;text-underline-offset:.15em}
a:hover{color:#3d2600}
:focus-visible{outline:3px solid #0b57d0;outline-offset:3px;border-radius:4px}
.skip{position:absolute;inset-inline-start:.75rem;top:-4rem;z-index:10;background:#fff;color:#1d1d1f;padding:.5rem 1rem;border:2px solid #0b57d0;border-radius:8px}
.skip:focus{top:.75rem}
.site{background:#fff;border-block-end:1px solid #e6dfd3}
.bar{max-width:56rem;margin:0 auto;padding:.75rem 1.25rem;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;justify-content:space-between}
.brand{font-weight:700;color:#1d1d1f;text-decoration:none}
.brand:hover{color:#6b4200}
.account{display:flex;flex-wrap:wrap;gap:.25rem .9rem;align-items:center;font-size:.95rem}
.account form{margin:0}
.who{color:#555;overflow-wrap:anywhere}
main:focus{outline:none}
main{display:block;max-width:56rem;margin:0 auto;padding:1.75rem 1.25rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem}
h2{font-size:1.15rem;line-height:1.3;margin:0 0 .75rem}
p{margin:0 0 .75rem}
.lead{font-size:1.1rem;max-width:42rem}
.hint{color:#555;font-size:.95rem}
.card{background:#fff;border:1px solid #e6dfd3;border-radius:12px;padding:1.25rem;margin-block-start:1rem}
.card> :last-child{margin-block-end:0}
.changes-frame{display:block;background:#fff;border:1px solid #e6dfd3;border-radius:8px;overflow:hidden;margin-block-end:.5rem}
.changes-frame img{display:block;width:100%;height:auto}
.changes{margin:0;padding-inline-start:1.5rem}
.changes li{margin-block-end:.35rem}
.grid{display:grid;gap:0 1rem}
@media (min-width:48rem){.grid{grid-template-columns:1fr 1fr}}
.facts{display:grid;grid-template-columns:fit-content(55%) 1fr;gap:.45rem 0;margin:0 0 .75rem}
.facts dt{color:#555;padding-inline-end:1.25rem}
.facts dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums;white-space:nowrap}
.size-line{font-weight:700;font-size:1.1rem;margin-block-end:.25rem}
.facts .total{border-block-start:1px solid #e6dfd3;padding-block-start:.45rem;font-size:1.1rem;color:#1d1d1f;font-weight:700}
.actions{display:flex;flex-direction:column;gap:.75rem;margin-block:1rem}
.actions form{margin:0}
@media (min-width:36rem){.actions{flex-direction:row;flex-wrap:wrap}}
.btn{display:inline-block;width:100%;min-height:48px;padding:.7rem 1.6rem;border:2px solid #6b4200;border-radius:10px;font:inherit;font-weight:700;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer}
@media (min-width:36rem){.btn{width:auto}}
.btn-primary{background:#6b4200;color:#fff}
.btn-primary:hover{background:#4f3100;border-color:#4f3100;color:#fff}
.btn-secondary{background:#fff;color:#6b4200}
.btn-secondary:hover{background:#f6efe4;color:#4f3100}
.link-button{background:none;border:0;padding:0;font:inherit;color:#6b4200;text-decoration:underline;text-underline-offset:.15em;cursor:pointer}
.link-button:hover{color:#3d2600}
.notice{border-inline-start:5px solid #6b4200;background:#f6efe4;border-radius:8px;padding:.75rem 1rem;margin-block:1rem}
.notice.error{border-color:#b3261e;background:#fdecea;color:#5f1410}
.notice.success{border-color:#1e7b3a;background:#e8f3ec;color:#0f3d1d}
.form{display:grid;gap:1.1rem;max-width:26rem;margin-block-start:1rem}
.field label{display:block;font-weight:700;margin-block-end:.3rem}
.field input{width:100%;min-height:48px;padding:.6rem .75rem;border:1px solid #8a8378;border-radius:8px;background:#fff;color:#1d1d1f;font:inherit}
.field .hint{margin:.3rem 0 0}
.switch{margin-block-start:1.25rem}
.after{margin-block-start:1rem}
.designs{list-style:none;margin:0;padding:0}
.design-item{display:flex;flex-direction:column;padding-block:.6rem;border-block-end:1px solid #e6dfd3}
.design-item:last-child{border-block-end:0}
.design-item a{font-weight:700;min-height:24px}
.decision-bar{position:sticky;bottom:0;z-index:5;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;margin:1.5rem -1.25rem -3rem;padding:.75rem 1.25rem calc(.75rem + env(safe-area-inset-bottom));background:#fff;border-block-start:1px solid #d9cfbf;box-shadow:0 -4px 16px rgba(60,40,0,.08)}
.decision-bar .bar-total{flex:1 0 100%;margin:0;font-weight:700;font-variant-numeric:tabular-nums}
.decision-bar .btn{flex:1 1 0;width:auto;padding-inline:1rem}
@media (min-width:36rem){.decision-bar{margin-inline:0;border:1px solid #d9cfbf;border-radius:12px 12px 0 0}.decision-bar .bar-total{flex:1 1 auto}.decision-bar .btn{flex:0 0 auto}}
html{scroll-padding-block-end:9rem}
.decline-form{flex-basis:100%;display:grid;gap:1rem;margin:0;padding-block-start:1rem;border-block-start:1px solid #e6dfd3}
.decline-form>*{max-width:36rem}
.choices{margin:0;padding:.5rem 1rem .75rem;border:1px solid #8a8378;border-radius:8px;min-width:0}
.choices legend{font-weight:700;padding-inline:.35rem}
.choice{display:flex;align-items:center;gap:.75rem;min-height:48px;cursor:pointer}
.choice input{flex:none;width:1.4rem;height:1.4rem;margin:0;accent-color:#6b4200;cursor:pointer}
.field textarea{display:block;width:100%;min-height:7.5rem;padding:.6rem .75rem;border:1px solid #8a8378;border-radius:8px;background:#fff;color:#1d1d1f;font:inherit;resize:vertical}
.field textarea[aria-invalid="true"]{border:2px solid #b3261e}
.decline-text{display:block;margin-block-start:.3rem;padding-inline-start:.75rem;border-inline-start:3px solid #e6dfd3;white-space:pre-line;overflow-wrap:anywhere}
.piece-figure{margin:0 0 1rem}
.confirm-picture img{display:block;width:100%;max-width:16rem;height:auto;margin-inline:auto;background:#f3efe8;border-radius:8px}
.piece-frame{display:block;background:#f3efe8;border-radius:8px;overflow:hidden}
.piece-frame img{display:block;width:100%;height:auto;max-height:80vh;object-fit:contain}
.piece-figure.worn .piece-frame{max-width:30rem;margin-inline:auto}
.piece-figure figcaption{color:#555;font-size:.95rem;margin-block-start:.5rem;text-align:center}
`;
