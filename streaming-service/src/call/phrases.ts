import { primarySubtag } from '../../../lib/domain/language-support.js';

/**
 * The session's fixed lines, backchannels and continuation words per language (docs/voice-pipeline.md,
 * "Languages"). An agent's own `silence.reprompt_message`, `interruption.backchannels` and
 * `turn_taking.continuation_words` replace these, as before; a deployment's session options replace the
 * lines. A language without a table here speaks English lines (the model still answers in the language).
 */
export interface LanguagePhrases {
  readonly fillerPhrases: readonly string[];
  readonly stillWorkingPhrases: readonly string[];
  readonly goodbyePhrase: string;
  readonly apologyPhrase: string;
  readonly failurePhrase: string;
  readonly closingPhrase: string;
  readonly transferHoldPhrase: string;
  readonly transferFailedPhrase: string;
  /** "Are you still there?" */
  readonly repromptMessage: string;
  /** Single words that acknowledge without taking the floor (lower case). */
  readonly backchannels: readonly string[];
  /** Words a sentence does not end on: conjunctions, articles, prepositions, fillers (lower case). */
  readonly continuationWords: readonly string[];
  /** Words or short phrases that stop the agent at once when a caller turn starts with one (lower case). */
  readonly stopWords: readonly string[];
}

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

export const PHRASES = {
  en: {
    fillerPhrases: ['One moment, please.', 'Let me check that for you.', 'Just a second.', 'Let me look that up.'],
    stillWorkingPhrases: ['Still checking, thanks for waiting.', 'Almost there, thanks for your patience.', 'Still working on it, bear with me.'],
    goodbyePhrase: 'Goodbye!',
    apologyPhrase: 'Sorry, I missed that. Could you say it again?',
    failurePhrase: 'Sorry, we are having technical trouble and have to end the call. Please call back in a few minutes.',
    closingPhrase: 'We are almost out of time for this call, so I will need to wrap up now. Thank you for calling, goodbye!',
    transferHoldPhrase: 'Please hold while I connect you.',
    transferFailedPhrase: 'Sorry, I could not connect you right now. How else can I help?',
    repromptMessage: 'Are you still there?',
    // "okay" and "right" count: callers say them to mean "go on". Single words only.
    backchannels: words('uh-huh uh huh mm-hmm mhm mm hmm um ah oh yeah yes yep yup ok okay right sure alright'),
    continuationWords: words(
      'and or but so because if than that which who whose when while although though unless until whether nor as where ' +
        'a an the my your our their his her its this these those some any every each another no ' +
        'to for of in on at by with from about into onto over under after before between through during without around near per via towards toward ' +
        'um umm uh uhh uhm er erm hmm mm',
    ),
    stopWords: ['stop', 'wait', 'hold on', 'hang on', 'no', 'sorry', 'excuse me', 'pardon', 'one moment', 'shut up', 'enough'],
  },
  es: {
    fillerPhrases: ['Un momento, por favor.', 'Déjeme comprobarlo.', 'Un segundo.', 'Voy a consultarlo.'],
    stillWorkingPhrases: ['Sigo comprobándolo, gracias por esperar.', 'Ya casi está, gracias por su paciencia.', 'Sigo en ello, un momento más.'],
    goodbyePhrase: '¡Adiós!',
    apologyPhrase: 'Perdone, no le he entendido. ¿Puede repetirlo?',
    failurePhrase: 'Lo siento, tenemos problemas técnicos y debemos terminar la llamada. Vuelva a llamar en unos minutos.',
    closingPhrase: 'Se nos acaba el tiempo de esta llamada, así que tengo que terminar. Gracias por llamar, ¡adiós!',
    transferHoldPhrase: 'Espere un momento, le paso la llamada.',
    transferFailedPhrase: 'Lo siento, ahora no he podido pasarle la llamada. ¿En qué más puedo ayudarle?',
    repromptMessage: '¿Sigue ahí?',
    backchannels: words('ajá eh ah oh mm mhm hmm sí vale claro bueno ya okey ok exacto'),
    continuationWords: words(
      'y e o u pero porque que si cuando mientras aunque como donde ni pues ' +
        'el la los las un una unos unas mi tu su mis tus sus nuestro nuestra este esta estos estas ese esa ' +
        'a de del al en con por para sin sobre entre hacia hasta desde tras según ' +
        'eh em este mm',
    ),
    stopWords: ['para', 'espera', 'espere', 'un momento', 'no', 'perdón', 'perdone', 'disculpe', 'basta', 'alto'],
  },
  fr: {
    fillerPhrases: ['Un instant, s’il vous plaît.', 'Je vérifie pour vous.', 'Une seconde.', 'Je regarde ça.'],
    stillWorkingPhrases: ['Je vérifie toujours, merci de patienter.', 'Presque fini, merci de votre patience.', 'Je m’en occupe encore, un instant.'],
    goodbyePhrase: 'Au revoir !',
    apologyPhrase: 'Pardon, je n’ai pas compris. Pouvez-vous répéter ?',
    failurePhrase: 'Désolé, nous avons un problème technique et devons terminer l’appel. Merci de rappeler dans quelques minutes.',
    closingPhrase: 'Nous arrivons au bout du temps de cet appel, je dois donc conclure. Merci de votre appel, au revoir !',
    transferHoldPhrase: 'Ne quittez pas, je vous mets en relation.',
    transferFailedPhrase: 'Désolé, je n’ai pas pu vous mettre en relation. Puis-je vous aider autrement ?',
    repromptMessage: 'Vous êtes toujours là ?',
    backchannels: words('euh ah oh hum mm mhm oui ouais d’accord ok okay voilà bien entendu'),
    continuationWords: words(
      'et ou mais donc car parce que qui quand si comme lorsque puisque ni ' +
        'le la les un une des du mon ma mes ton ta tes son sa ses notre votre leur ce cet cette ces ' +
        'à au aux de en dans avec pour par sur sous sans chez vers entre après avant pendant depuis ' +
        'euh hum heu bah',
    ),
    stopWords: ['stop', 'arrêtez', 'attendez', 'attends', 'un instant', 'non', 'pardon', 'excusez-moi', 'une seconde'],
  },
  de: {
    fillerPhrases: ['Einen Moment, bitte.', 'Ich sehe kurz nach.', 'Eine Sekunde.', 'Ich schaue das nach.'],
    stillWorkingPhrases: ['Ich prüfe noch, danke fürs Warten.', 'Gleich geschafft, danke für Ihre Geduld.', 'Ich bin noch dran, einen Moment noch.'],
    goodbyePhrase: 'Auf Wiederhören!',
    apologyPhrase: 'Entschuldigung, das habe ich nicht verstanden. Können Sie das wiederholen?',
    failurePhrase: 'Entschuldigung, wir haben technische Probleme und müssen das Gespräch beenden. Bitte rufen Sie in ein paar Minuten wieder an.',
    closingPhrase: 'Die Zeit für dieses Gespräch ist fast um, ich muss jetzt zum Schluss kommen. Danke für Ihren Anruf, auf Wiederhören!',
    transferHoldPhrase: 'Bitte bleiben Sie dran, ich verbinde Sie.',
    transferFailedPhrase: 'Entschuldigung, ich konnte Sie gerade nicht verbinden. Wie kann ich sonst helfen?',
    repromptMessage: 'Sind Sie noch da?',
    backchannels: words('äh ähm ah oh hm mhm mm ja jap genau okay ok gut klar stimmt richtig'),
    continuationWords: words(
      'und oder aber denn weil dass wenn als ob obwohl während sondern bis damit ' +
        'der die das den dem des ein eine einen einem einer mein meine dein deine sein seine ihr ihre unser dieser diese dieses ' +
        'zu für von mit bei nach aus an auf in um über unter vor hinter zwischen durch ohne gegen seit ' +
        'äh ähm öhm hm',
    ),
    stopWords: ['stopp', 'stop', 'warte', 'warten sie', 'moment', 'halt', 'nein', 'entschuldigung', 'sorry', 'einen moment'],
  },
  pt: {
    fillerPhrases: ['Um momento, por favor.', 'Deixe-me verificar.', 'Só um segundo.', 'Vou consultar isso.'],
    stillWorkingPhrases: ['Ainda a verificar, obrigado por esperar.', 'Quase pronto, obrigado pela paciência.', 'Continuo a tratar disso, só mais um momento.'],
    goodbyePhrase: 'Adeus!',
    apologyPhrase: 'Desculpe, não percebi. Pode repetir?',
    failurePhrase: 'Desculpe, estamos com problemas técnicos e temos de terminar a chamada. Ligue novamente daqui a alguns minutos.',
    closingPhrase: 'O tempo desta chamada está a acabar, por isso tenho de terminar. Obrigado pela chamada, adeus!',
    transferHoldPhrase: 'Aguarde um momento, vou transferir a chamada.',
    transferFailedPhrase: 'Desculpe, não consegui transferir a chamada agora. Em que mais posso ajudar?',
    repromptMessage: 'Ainda está aí?',
    backchannels: words('ah oh hum mm mhm uhum sim pois claro certo ok okay tá exato'),
    continuationWords: words(
      'e ou mas porque que se quando enquanto embora como onde nem pois ' +
        'o a os as um uma uns umas meu minha seu sua nosso nossa este esta esse essa ' +
        'de do da dos das em no na com por para sem sobre entre até desde ao à ' +
        'hum é eh',
    ),
    stopWords: ['para', 'pare', 'espera', 'espere', 'um momento', 'não', 'desculpe', 'com licença', 'chega'],
  },
  it: {
    fillerPhrases: ['Un momento, per favore.', 'Controllo subito.', 'Un secondo.', 'Verifico.'],
    stillWorkingPhrases: ['Sto ancora controllando, grazie dell’attesa.', 'Quasi fatto, grazie per la pazienza.', 'Ci sto ancora lavorando, un attimo.'],
    goodbyePhrase: 'Arrivederci!',
    apologyPhrase: 'Mi scusi, non ho capito. Può ripetere?',
    failurePhrase: 'Mi scusi, abbiamo un problema tecnico e dobbiamo chiudere la chiamata. Richiami tra qualche minuto.',
    closingPhrase: 'Il tempo di questa chiamata sta per finire, quindi devo concludere. Grazie per aver chiamato, arrivederci!',
    transferHoldPhrase: 'Resti in linea, la metto in contatto.',
    transferFailedPhrase: 'Mi scusi, non sono riuscito a trasferire la chiamata. Come posso aiutarla altrimenti?',
    repromptMessage: 'È ancora lì?',
    backchannels: words('eh ah oh mm mhm ehm sì già certo ok okay va bene esatto giusto'),
    continuationWords: words(
      'e o ma perché che se quando mentre anche come dove né però ' +
        'il lo la i gli le un uno una mio mia tuo tua suo sua nostro questo questa quel quella ' +
        'di a da in con su per tra fra del della al alla nel nella ' +
        'ehm eh mm',
    ),
    stopWords: ['basta', 'aspetta', 'aspetti', 'un momento', 'no', 'scusi', 'scusa', 'fermo', 'stop'],
  },
  nl: {
    fillerPhrases: ['Een moment, alstublieft.', 'Ik kijk het even voor u na.', 'Een seconde.', 'Ik zoek het op.'],
    stillWorkingPhrases: ['Ik ben nog aan het zoeken, bedankt voor het wachten.', 'Bijna klaar, bedankt voor uw geduld.', 'Ik ben er nog mee bezig, nog een moment.'],
    goodbyePhrase: 'Tot ziens!',
    apologyPhrase: 'Sorry, dat heb ik niet verstaan. Kunt u het herhalen?',
    failurePhrase: 'Sorry, we hebben technische problemen en moeten het gesprek beëindigen. Belt u over een paar minuten terug.',
    closingPhrase: 'De tijd voor dit gesprek is bijna om, dus ik moet afronden. Bedankt voor het bellen, tot ziens!',
    transferHoldPhrase: 'Een ogenblik, ik verbind u door.',
    transferFailedPhrase: 'Sorry, ik kon u nu niet doorverbinden. Waarmee kan ik u verder helpen?',
    repromptMessage: 'Bent u er nog?',
    backchannels: words('eh uh ah oh hm mm mhm ja jawel oké ok okay precies klopt goed'),
    continuationWords: words(
      'en of maar want omdat dat als wanneer terwijl hoewel toen dus ' +
        'de het een mijn jouw uw zijn haar ons onze hun deze dit die ' +
        'van in op aan met voor naar bij uit over door tot om tussen zonder onder ' +
        'eh uhm ehm',
    ),
    stopWords: ['stop', 'wacht', 'wacht even', 'moment', 'nee', 'sorry', 'pardon', 'excuseer'],
  },
  hi: {
    fillerPhrases: ['एक पल रुकिए।', 'मैं आपके लिए देख रहा हूँ।', 'बस एक सेकंड।', 'मैं इसे देखता हूँ।'],
    stillWorkingPhrases: ['अभी भी देख रहा हूँ, इंतज़ार के लिए धन्यवाद।', 'बस हो गया, धैर्य के लिए धन्यवाद।', 'अभी काम चल रहा है, थोड़ा रुकिए।'],
    goodbyePhrase: 'नमस्ते!',
    apologyPhrase: 'माफ़ कीजिए, मैं समझ नहीं पाया। क्या आप दोबारा कह सकते हैं?',
    failurePhrase: 'माफ़ कीजिए, तकनीकी समस्या के कारण हमें कॉल समाप्त करनी होगी। कृपया कुछ मिनट बाद फिर से कॉल करें।',
    closingPhrase: 'इस कॉल का समय लगभग खत्म हो गया है, इसलिए मुझे अब बात समाप्त करनी होगी। कॉल करने के लिए धन्यवाद, नमस्ते!',
    transferHoldPhrase: 'कृपया लाइन पर बने रहिए, मैं आपको जोड़ रहा हूँ।',
    transferFailedPhrase: 'माफ़ कीजिए, मैं अभी आपको जोड़ नहीं पाया। मैं और कैसे मदद कर सकता हूँ?',
    repromptMessage: 'क्या आप अभी भी लाइन पर हैं?',
    backchannels: words('हाँ हां जी अच्छा ठीक हम्म हूँ ओके ओह अरे'),
    continuationWords: words('और या लेकिन पर क्योंकि कि अगर जब तो जो का की के को में से पर तक लिए एक यह वह मेरा मेरी आपका आपकी उम्म अं'),
    stopWords: ['रुको', 'रुकिए', 'रुकिये', 'ठहरो', 'नहीं', 'सुनिए', 'माफ़ कीजिए', 'बस', 'stop'],
  },
  ja: {
    fillerPhrases: ['少々お待ちください。', 'お調べいたします。', '一秒お待ちください。', '確認いたします。'],
    stillWorkingPhrases: ['まだ確認中です。お待たせしております。', 'もう少しです。ご辛抱ありがとうございます。', 'ただいま対応中です。もう少々お待ちください。'],
    goodbyePhrase: '失礼いたします。',
    apologyPhrase: '申し訳ありません、聞き取れませんでした。もう一度おっしゃっていただけますか？',
    failurePhrase: '申し訳ありません、技術的な問題のため通話を終了いたします。数分後におかけ直しください。',
    closingPhrase: 'お時間が近づいてまいりましたので、これで終了させていただきます。お電話ありがとうございました。失礼いたします。',
    transferHoldPhrase: 'おつなぎいたしますので、少々お待ちください。',
    transferFailedPhrase: '申し訳ありません、ただいまおつなぎできませんでした。ほかにご用件はございますか？',
    repromptMessage: 'もしもし、聞こえていますか？',
    backchannels: words('はい ええ うん そう なるほど へえ ああ おお えっと あの'),
    // Japanese is written without spaces: a transcript that ends on a particle or conjunction is unfinished.
    continuationWords: words('が を に で と の は も から まで より や けど けれど そして でも それで あの えっと'),
    stopWords: ['ちょっと待って', '待って', 'ストップ', 'すみません', 'いいえ', 'ちょっと'],
  },
} as const satisfies Record<string, LanguagePhrases>;

export type PhraseLanguage = keyof typeof PHRASES;

/** The table for a language tag's primary subtag (`es-MX` -> es); English when there is none. */
export function phrasesFor(tag: string): LanguagePhrases {
  return (PHRASES as Record<string, LanguagePhrases>)[primarySubtag(tag)] ?? PHRASES.en;
}

/** Every table's stop words: a `multi` caller says "stop" in whatever language they are speaking. */
export const ALL_STOP_WORDS: readonly string[] = [...new Set(Object.values(PHRASES).flatMap((p) => p.stopWords))];

/** Every table's backchannels: a `multi` caller acknowledges in whatever language they are speaking. */
export const ALL_BACKCHANNELS: readonly string[] = [...new Set(Object.values(PHRASES).flatMap((p) => p.backchannels))];
