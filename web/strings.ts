import type { ProductType, DeclineChoice } from '../core/index.ts';

/**
 * Every word the people's pages show, in Hebrew, in one place. Values are plain text: the pages
 * escape them (and everything passed into them) when they render.
 */
export const he = {
  siteName: 'תכשיטי פליז בחיתוך לייזר',
  skipToContent: 'דילוג לתוכן',

  header: {
    accountNav: 'חשבון',
    signIn: 'כניסה',
    signUp: 'הרשמה',
    signOut: 'יציאה',
    signedInAs: 'מחוברים בתור',
  },

  products: { bracelet: 'צמיד', ring: 'טבעת' } satisfies Record<ProductType, string>,
  material: 'פליז',
  units: { mm: 'מ״מ', grams: 'גרם' },

  home: {
    title: 'תכשיטי פליז בחיתוך לייזר',
    intro:
      'צמידים וטבעות מפליז, בחיתוך לייזר לפי ציור. הסוכן שלכם שולח את הציור, ואתם מאשרים את העיצוב בקישור שתקבלו ממנו.',
  },

  notFound: {
    title: 'הדף לא נמצא',
    body: 'הדף שחיפשתם אינו קיים, או שהקישור כבר אינו בתוקף.',
    home: 'לדף הבית',
  },

  unavailable: {
    title: 'השירות אינו זמין כרגע',
    body: 'לא הצלחנו לבדוק את הכניסה לחשבון. נסו שוב בעוד חצי דקה.',
  },

  serverError: {
    title: 'משהו השתבש אצלנו',
    body: 'אירעה תקלה בלתי צפויה, והבקשה לא הושלמה. נסו שוב בעוד כמה רגעים.',
  },

  crossSite: {
    title: 'הבקשה נדחתה',
    body: 'הטופס נשלח מאתר אחר. חזרו לדף שלנו ונסו שוב משם.',
  },

  tooLarge: {
    title: 'הבקשה גדולה מדי',
    body: 'הטופס שנשלח גדול מהמותר. חזרו לדף ונסו שוב.',
  },

  facts: {
    heading: 'פרטי התכשיט',
    product: 'מוצר',
    dimensions: 'הפס השטוח (אורך × רוחב)',
    thickness: 'עובי',
    material: 'חומר',
    weight: 'משקל משוער',
    version: 'גרסה',
    versionNo: (no: string) => `מספר ${no}`,
    dimensionsValue: (length: string, width: string, unit: string) => `${length} × ${width} ${unit}`,
  },

  price: {
    heading: 'מחיר',
    base: 'מחיר התכשיט',
    shipping: 'משלוח',
    total: 'סה״כ',
    vatIncluded: 'המחירים כוללים מע״מ.',
    checkoutNote: 'קוד הפניה או איסוף עצמי אפשר לבחור בשלב התשלום.',
  },

  pictures: {
    heading: 'כך ייראה התכשיט',
    worn: {
      bracelet: {
        alt: (length: string, width: string, gap: string) =>
          `הצמיד כפי שהוא נענד, במבט מלמעלה ובזווית: רצועת פליז באורך ${length} וברוחב ${width}, מכופפת לעיגול עם פתח של ${gap} בין הקצוות`,
        caption: (gap: string) => `הצמיד מכופף כפי שהוא נענד, עם פתח של ${gap} בין הקצוות.`,
      },
      ring: {
        alt: (length: string, width: string) =>
          `הטבעת כפי שהיא נענדת, במבט מלמעלה ובזווית: רצועת פליז באורך ${length} וברוחב ${width}, מכופפת לעיגול סגור`,
        caption: 'הטבעת מכופפת לעיגול סגור, כפי שהיא נענדת.',
      },
    },
    flat: {
      alt: (dimensions: string) =>
        `הרצועה השטוחה לפני הכיפוף, ${dimensions}, בצבע פליז: השטחים הפתוחים ייחתכו בלייזר. מתחתיה סרגל במילימטרים לכל האורך, ולצדה סימון הרוחב`,
      caption: 'הרצועה השטוחה לפני הכיפוף. הסרגל שמתחתיה במילימטרים, באותו קנה מידה כמו התכשיט.',
    },
    enlarge: 'לחצו על תמונה כדי לפתוח אותה בגודל מלא.',
    note: 'התמונות מחושבות מקובץ החיתוך עצמו. הגוון והברק להמחשה בלבד.',
  },

  changes: {
    heading: 'מה שינינו בציור',
    intro: 'כדי שאפשר יהיה לחתוך את התכשיט, המערכת שינתה את הציור בכמה מקומות. המספרים ברשימה מתאימים למספרים בתמונה.',
    pictureAlt:
      'הציור שנשלח, עם עיגולים ממוספרים סביב המקומות שהשתנו, ומתחתיו לכל שינוי: הציור כפי שנשלח והתכשיט כפי שייחתך',
    pictureHint:
      'בכל זוג תמונות קטנות: משמאל הציור כפי שנשלח (DRAWN), ומימין התכשיט כפי שייחתך (CUT). לחיצה על התמונה פותחת אותה בגודל מלא.',
    places: (count: string) => `(${count} מקומות)`,
    /** One line per warning; the engine's repairs say what it changed, the rest are notes about the drawing. */
    lines: {
      ISLAND_BRIDGED: 'גשר חיבר אי מתכת לשאר התכשיט, כדי שלא ייפול בחיתוך.',
      ISLAND_REMOVED: 'אי מתכת קטן שלא היה אפשר לחבר הוסר, כי היה נופל בחיתוך.',
      NECK_THICKENED: 'חיבור מתכת דק מדי הורחב, כדי שלא יישבר.',
      SPURS_SHAVED: 'בליטות דקות מדי בקו המתאר הוסרו.',
      OPENING_REMOVED: 'פתחים קטנים או צרים מכדי לחתוך אותם מולאו במתכת.',
      NOT_TWO_TONE: 'בציור היו גווני אפור; כל גוון נקרא כמתכת או כחלל.',
      DESIGN_TOUCHES_EDGE: 'הציור נגע בשולי התמונה.',
      DISCONNECTED_REGIONS: 'חלקים שלא היו מחוברים לתכשיט הושמטו.',
      NECK_CHECK_SKIPPED: 'העיצוב מורכב מכדי לבדוק את רוחב המתכת בכל מקום.',
      PROPORTION_MISMATCH: 'היחס בין האורך לרוחב בציור שונה מהמידות, והציור נמתח לאורכו.',
      other: 'הערה נוספת של המערכת על הציור.',
    },
  },

  approval: {
    title: 'אישור עיצוב',
    pendingHeading: 'העיצוב מוכן לאישור',
    pendingIntro: (product: string) =>
      `הסוכן שלכם הכין עיצוב ${product} מפליז בחיתוך לייזר. בדקו את התצוגה, המידות והמחיר, ואז אשרו או דחו.`,
    decisionHeading: 'ההחלטה שלכם',
    approve: 'אישור העיצוב',
    decline: 'דחיית העיצוב',
    approveHelp: 'האישור שומר את העיצוב בחשבון שלכם ונועל אותו. ההזמנה והתשלום נעשים בנפרד.',
    approveAs: 'האישור יישמר בחשבון',
    approveNeedsAccount:
      'כדי לאשר צריך חשבון באתר. בדרך לאישור תוכלו להיכנס לחשבון או לפתוח חשבון, ואז לאשר בלחיצה אחת.',
    declineHelp: 'דחייה מודיעה לסוכן שהעיצוב אינו מתאים, והוא יוכל לשלוח גרסה חדשה.',
    expires: (date: string) => `הקישור בתוקף עד ${date}.`,
    approvedHeading: 'העיצוב אושר',
    approvedByYou: 'אישרתם את העיצוב, והוא שמור בחשבון שלכם.',
    approvedBySomeone: 'העיצוב כבר אושר, והקישור אינו מקבל עוד החלטות.',
    toYourDesign: 'לעיצוב שלכם',
    declinedHeading: 'העיצוב נדחה',
    declinedBody:
      'הסוכן יקבל את ההחלטה ויוכל לשלוח גרסה חדשה. כשתגיע גרסה חדשה היא תופיע באותו קישור, ותוכלו לאשר אותה.',
    /** The decline form's optional reason, and the line that shows it back once declined. */
    declineReason: {
      legend: 'למה העיצוב לא מתאים לכם? (לא חובה)',
      none: 'בלי לציין סיבה',
      choices: {
        price: 'המחיר גבוה מדי',
        size: 'המידה לא מתאימה',
        look: 'העיצוב לא נראה כמו שרציתם',
        changes: 'השינויים שהמערכת עשתה בציור לא מקובלים עליכם',
        other: 'סיבה אחרת',
      } satisfies Record<DeclineChoice, string>,
      textLabel: 'ספרו לנו במילים שלכם (לא חובה)',
      textHint: (max: string) => `עד ${max} תווים. מה שתכתבו כאן יועבר לסוכן שלכם, כדי שיוכל לשלוח גרסה מתאימה יותר.`,
      yours: 'הסיבה שלכם:',
    },
    errors: {
      SUBMISSION_SUPERSEDED:
        'בינתיים הגיעה גרסה חדשה יותר של העיצוב, והיא מוצגת עכשיו. בדקו אותה ואשרו שוב אם היא מתאימה.',
      ALREADY_APPROVED: 'העיצוב כבר אושר מחשבון אחר.',
      RATE_LIMITED: 'נעשו יותר מדי ניסיונות בזמן קצר. נסו שוב בעוד כמה דקות.',
      AUTH_UNAVAILABLE: 'לא הצלחנו לבדוק את הכניסה לחשבון. נסו שוב בעוד חצי דקה.',
      JOB_LOCKED: 'העיצוב כבר אושר, ולכן אי אפשר לדחות אותו.',
      DECLINE_SUPERSEDED:
        'בינתיים הגיעה גרסה חדשה יותר של העיצוב, והיא מוצגת עכשיו. שום דבר לא נדחה: בדקו את הגרסה החדשה, ודחו אותה אם היא לא מתאימה.',
      LENGTH_OUT_OF_RANGE:
        'מידות העיצוב כבר אינן בטווח שאפשר לייצר, ולכן אי אפשר לאשר אותו. הסוכן יכול לשלוח גרסה חדשה.',
      DECLINE_TEXT_TOO_LONG: (max: string) =>
        `ההסבר שכתבתם ארוך מ־${max} תווים, ולכן העיצוב עוד לא נדחה. קצרו אותו ונסו שוב.`,
      DECLINE_CHOICE_UNKNOWN: 'הסיבה שנשלחה אינה אחת מהאפשרויות, ולכן העיצוב עוד לא נדחה. בחרו סיבה מהרשימה ונסו שוב.',
      other: 'הפעולה לא הצליחה. נסו שוב, ואם זה חוזר, בקשו מהסוכן קישור חדש.',
    },
  },

  form: {
    email: 'דוא״ל',
    password: 'סיסמה',
  },

  signIn: {
    title: 'כניסה לחשבון',
    submit: 'כניסה',
    failed: 'הדוא״ל או הסיסמה שגויים.',
    throttled: 'היו יותר מדי ניסיונות כניסה. נסו שוב מאוחר יותר.',
    noAccount: 'אין לכם חשבון?',
    toSignUp: 'פתיחת חשבון',
    alreadySignedIn: 'אתם כבר מחוברים בתור',
    continue: 'המשך',
  },

  signUp: {
    title: 'פתיחת חשבון',
    submit: 'פתיחת חשבון',
    passwordHint: (min: string) => `לפחות ${min} תווים, ולא סיסמה נפוצה.`,
    failed: (min: string) =>
      `לא הצלחנו לפתוח חשבון עם הפרטים האלה. בדקו את כתובת הדוא״ל ושהסיסמה באורך ${min} תווים לפחות. אם כבר יש לכם חשבון, היכנסו אליו.`,
    commonPassword:
      'הסיסמה הזאת נפוצה מדי: היא מופיעה ברשימות של סיסמאות שדלפו, או שהיא חוזרת על אותם תווים או עוברת על תווים ברצף, ולכן קל לנחש אותה. בחרו סיסמה אחרת.',
    throttled: 'היו יותר מדי ניסיונות בזמן קצר. נסו שוב מאוחר יותר.',
    haveAccount: 'כבר יש לכם חשבון?',
    toSignIn: 'כניסה',
  },

  design: {
    title: 'העיצוב שלי',
    heading: (product: string) => `העיצוב שלכם: ${product}`,
    saved: 'העיצוב שמור בחשבון שלכם.',
    created: (date: string) => `אושר ב־${date}.`,
    fileHeading: 'קובץ החיתוך',
    fileBody:
      'את הקובץ הזה לא צריך כדי להזמין: זה הקובץ שממנו ייחתך התכשיט, קווי החיתוך במילימטרים, למי שרוצה לשמור אותו.',
    download: 'הורדת קובץ החיתוך (SVG)',
  },

  size: {
    fit: { snug: 'התאמה צמודה', comfort: 'התאמה נוחה', loose: 'התאמה רפויה' },
    wrist: (mm: string, fit: string) => `מתאים לפרק יד בהיקף של כ־${mm} מ״מ (${fit})`,
    cuff: (gap: string) => `צמיד פתוח, עם מרווח של ${gap} מ״מ בין הקצוות`,
    ring: (size: string, diameter: string) => `מידת טבעת אמריקאית ${size} (קוטר פנימי ${diameter} מ״מ)`,
    ringAbout: (size: string, diameter: string) => `בערך מידת טבעת אמריקאית ${size} (קוטר פנימי ${diameter} מ״מ)`,
    ringDiameter: (diameter: string) => `קוטר פנימי ${diameter} מ״מ`,
    closedRing: 'טבעת סגורה',
  },

  decisionBar: {
    label: 'אישור או דחייה',
    total: (price: string) => `סה״כ ${price}`,
    toDecline: 'דחייה',
  },

  confirm: {
    title: 'אישור העיצוב',
    heading: 'לאשר את העיצוב?',
    intro: (product: string, version: string) => `אתם עומדים לאשר את ה${product} שבתמונה, גרסה מספר ${version}.`,
    locks: 'אחרי האישור העיצוב נשמר בחשבון שלכם וננעל: אי אפשר לשנות אותו או לדחות אותו.',
    yes: 'כן, לאשר את העיצוב',
    back: 'חזרה לעיצוב',
    needsAccount: 'כדי לאשר צריך חשבון. היכנסו לחשבון או פתחו חשבון חדש, ותחזרו לכאן כדי לאשר בלחיצה אחת.',
    signIn: 'כניסה לחשבון',
    signUp: 'פתיחת חשבון',
    summary: 'מה אתם מאשרים',
    pictureAlt: (product: string) => `ה${product} שאתם מאשרים, כפי שייראה כשהוא נענד`,
  },

  accountFor: {
    approval: 'כדי לאשר את העיצוב צריך חשבון. אחרי הכניסה תחזרו לדף האישור, ושם תאשרו בלחיצה אחת.',
  },

  nextSteps: {
    heading: 'מה הלאה',
    order: (total: string) =>
      `השלב הבא הוא הזמנה ותשלום בקופה: ${total}, כולל משלוח ומע״מ. בקופה אפשר לבחור איסוף עצמי או להזין קוד הפניה.`,
    making: 'אחרי התשלום נחתוך את התכשיט מפליז בלייזר ונשלח אותו אליכם.',
    keep: 'העיצוב שמור בחשבון שלכם, ותמצאו אותו תמיד בדף הבית.',
  },

  designs: {
    heading: 'העיצובים שלכם',
    none: 'עדיין אין בחשבון עיצובים שאישרתם. כשתאשרו עיצוב בקישור מהסוכן, הוא יופיע כאן.',
    item: (product: string, date: string) => `${product}, אושר ב־${date}`,
    open: (product: string) => `פתיחת ה${product}`,
  },
};

export type ApprovalErrorCode = Exclude<keyof typeof he.approval.errors, 'other'>;
